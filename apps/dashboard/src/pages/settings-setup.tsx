import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.setup
type TaxRate = components['schemas']['TaxRate']
const METHODS = ['card', 'cash', 'gift_card', 'external'] as const

/** The store's locations: each with its own time zone; a new one. */
export function Locations() {
  const shop = useShop()
  const queries = useQueryClient()
  // The store's own zone first when the browser's list lacks it (Chromium lists no "UTC").
  const listed = Intl.supportedValuesOf('timeZone')
  const zones = listed.includes(shop.timeZone) ? listed : [shop.timeZone, ...listed]
  const create = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/locations', {
          body: { name: String(form.get('name') ?? '').trim(), timezone: String(form.get('timezone')) },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['shop'] }),
  })
  const errors = fieldErrors(create.error)
  return (
    <section aria-labelledby="locations-h">
      <h2 id="locations-h">{t.locations}</h2>
      <ul className="plain">
        {shop.locations.map((l) => (
          <li key={l.id} className="row">
            <span>{l.name}</span>
            <span className="muted">{l.timezone}</span>
          </li>
        ))}
      </ul>
      {shop.can('inventory:write') && (
        <form
          className="inline"
          aria-label={t.addLocation}
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate(new FormData(e.currentTarget))
          }}
        >
          <Field label={t.locationName} name="name" maxLength={200} error={errors.name} />
          <SelectField label={t.timezone} name="timezone" defaultValue={shop.timeZone} error={errors.timezone}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </SelectField>
          <button type="submit" disabled={create.isPending}>
            {t.addLocation}
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
    </section>
  )
}

/** Tax rates: each rate, its percentage, on or off; a new one on every item. */
export function TaxRates() {
  const shop = useShop()
  const queries = useQueryClient()
  const rates = useQuery({
    queryKey: ['tax-rates'],
    queryFn: () => unwrap(api().GET('/api/v1/tax-rates', { params: { query: { limit: 100 } } })),
  })
  const refresh = () => queries.invalidateQueries({ queryKey: ['tax-rates'] })
  const create = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/tax-rates', {
          body: { name: String(form.get('name') ?? '').trim(), rate: numberOf(String(form.get('rate') ?? '')) },
        }),
      ),
    onSuccess: refresh,
  })
  const toggle = useMutation({
    mutationFn: (rate: TaxRate) =>
      unwrap(
        api().PATCH('/api/v1/tax-rates/{id}', {
          params: { path: { id: rate.id } },
          body: { is_active: !rate.is_active, version: rate.version },
        }),
      ),
    onSuccess: refresh,
  })
  const errors = fieldErrors(create.error)
  const writable = shop.can('settings:write')
  return (
    <section aria-labelledby="tax-h">
      <h2 id="tax-h">{t.taxRates}</h2>
      <ErrorNote error={rates.error ?? toggle.error} />
      {rates.data && rates.data.data.length === 0 && <p className="empty">{t.noTax}</p>}
      <ul className="plain">
        {rates.data?.data.map((r) => (
          <li key={r.id} className="row">
            <span>
              {r.name} · {r.rate}% · {t.appliesTo[r.applies_to] ?? r.applies_to}
              {!r.is_active && ` · ${t.off}`}
            </span>
            {writable && (
              <button type="button" onClick={() => toggle.mutate(r)} disabled={toggle.isPending}>
                {r.is_active ? t.switchOff(r.name) : t.switchOn(r.name)}
              </button>
            )}
          </li>
        ))}
      </ul>
      {writable && (
        <form
          className="inline"
          aria-label={t.addTax}
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate(new FormData(e.currentTarget))
          }}
        >
          <Field label={t.taxName} name="name" maxLength={100} error={errors.name} />
          <Field label={t.taxRate} name="rate" inputMode="decimal" error={errors.rate} />
          <button type="submit" disabled={create.isPending}>
            {t.addTax}
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
    </section>
  )
}

/** How customers may pay: the methods the tills and the API take. */
export function PaymentMethods() {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const methods = useQuery({
    queryKey: ['payment-methods'],
    queryFn: () => unwrap(api().GET('/api/v1/payments/methods')),
    enabled: shop.can('payments:read'),
  })
  const save = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().PUT('/api/v1/payments/methods', {
          body: {
            methods: METHODS.filter((m) => form.get(m) === 'on'),
            version: methods.data?.data.version,
          },
        }),
      ),
    onSuccess: (answer) => {
      queries.setQueryData(['payment-methods'], answer)
      setDone(t.methodsSaved)
    },
  })
  const data = methods.data?.data
  if (!shop.can('payments:read')) return null
  return (
    <section aria-labelledby="methods-h">
      <h2 id="methods-h">{t.methods}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <ErrorNote error={methods.error} />
      {data && (
        <form
          key={data.version}
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            setDone('')
            save.mutate(new FormData(e.currentTarget))
          }}
        >
          <fieldset disabled={!shop.can('settings:write')}>
            <legend>{t.methodsTaken}</legend>
            {METHODS.filter((m) => data.available.includes(m)).map((m) => (
              <label key={m} className="choice">
                <input type="checkbox" name={m} defaultChecked={data.methods.includes(m)} />
                {strings.sale.methods[m]}
              </label>
            ))}
            <p className="muted">{t.processor(data.processor)}</p>
            <ErrorNote error={save.error} />
            <button type="submit" disabled={save.isPending}>
              {t.saveMethods}
            </button>
          </fieldset>
        </form>
      )}
    </section>
  )
}
