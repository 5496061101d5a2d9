import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Field, SelectField, TextAreaField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { Locations, PaymentMethods, TaxRates } from './settings-setup.tsx'

const t = strings.settings
type Settings = components['schemas']['Settings']
const ADDRESS = ['line1', 'line2', 'city', 'region', 'postal_code', 'country'] as const

/** Settings: the store (name, address, time zone, receipts, prices with tax, tips) and the person's own password. */
export function SettingsPage() {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => unwrap(api().GET('/api/v1/settings')),
  })
  return (
    <>
      <Title text={t.title} />
      <ErrorNote error={settings.error} />
      {settings.data && <Store settings={settings.data.data} />}
      <Locations />
      <TaxRates />
      <PaymentMethods />
      <Password />
    </>
  )
}

function Store({ settings }: { settings: Settings }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const save = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim()
      return unwrap(
        api().PATCH('/api/v1/settings', {
          body: {
            name: text('name'),
            phone: text('phone'),
            timezone: text('timezone'),
            // An empty country is none (the API takes a country only as its two letters).
            address: Object.fromEntries(
              ADDRESS.map((field) => [field, text(`address.${field}`)]).filter(
                ([field, value]) => field !== 'country' || value !== '',
              ),
            ),
            receipt_header: text('receipt_header'),
            receipt_footer: text('receipt_footer'),
            prices_include_tax: form.get('prices_include_tax') === 'on',
            tips: {
              enabled: form.get('tips.enabled') === 'on',
              percentages: text('tips.percentages')
                .split(/[\s,]+/)
                .filter(Boolean)
                .map(numberOf),
              base: text('tips.base') as 'before_tax' | 'after_tax',
              max_percent: numberOf(text('tips.max_percent')),
            },
            version: settings.version,
          } as never,
        }),
      )
    },
    onSuccess: (answer) => {
      queries.setQueryData(['settings'], answer)
      queries.invalidateQueries({ queryKey: ['shop'] })
      setDone(t.saved)
    },
  })
  const errors = fieldErrors(save.error)
  const zones = Intl.supportedValuesOf('timeZone')
  return (
    <section aria-labelledby="store-h">
      <h2 id="store-h">{t.store}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <form
        key={settings.version}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setDone('')
          save.mutate(new FormData(e.currentTarget))
        }}
      >
        <fieldset disabled={!shop.can('settings:write')}>
          <legend className="visually-hidden">{t.store}</legend>
          <Field label={t.name} name="name" defaultValue={settings.name} maxLength={200} error={errors.name} />
          <Field label={t.phone} name="phone" type="tel" defaultValue={settings.phone} error={errors.phone} />
          <SelectField label={t.timezone} name="timezone" defaultValue={settings.timezone} error={errors.timezone}>
            {(zones.includes(settings.timezone) ? zones : [settings.timezone, ...zones]).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </SelectField>
          <fieldset>
            <legend>{t.address}</legend>
            {ADDRESS.map((field) => (
              <Field
                key={field}
                label={t.addressFields[field]}
                name={`address.${field}`}
                defaultValue={settings.address?.[field] ?? ''}
                error={errors[`address.${field}`]}
              />
            ))}
          </fieldset>
          <TextAreaField
            label={t.receiptHeader}
            name="receipt_header"
            maxLength={1000}
            defaultValue={settings.receipt_header}
            error={errors.receipt_header}
          />
          <TextAreaField
            label={t.receiptFooter}
            name="receipt_footer"
            maxLength={1000}
            defaultValue={settings.receipt_footer}
            error={errors.receipt_footer}
          />
          <div className="check">
            <input
              id="prices-include-tax"
              name="prices_include_tax"
              type="checkbox"
              defaultChecked={settings.prices_include_tax}
            />
            <label htmlFor="prices-include-tax">{t.pricesIncludeTax}</label>
          </div>
          <fieldset>
            <legend>{t.tips}</legend>
            <div className="check">
              <input id="tips-enabled" name="tips.enabled" type="checkbox" defaultChecked={settings.tips.enabled} />
              <label htmlFor="tips-enabled">{t.tipsEnabled}</label>
            </div>
            <Field
              label={t.tipPercentages}
              name="tips.percentages"
              hint={t.tipPercentagesHint}
              defaultValue={settings.tips.percentages.join(', ')}
              error={Object.entries(errors).find(([k]) => k.startsWith('tips.percentages'))?.[1]}
            />
            <SelectField
              label={t.tipBase}
              name="tips.base"
              defaultValue={settings.tips.base}
              error={errors['tips.base']}
            >
              <option value="before_tax">{t.beforeTax}</option>
              <option value="after_tax">{t.afterTax}</option>
            </SelectField>
            <Field
              label={t.tipCap}
              name="tips.max_percent"
              inputMode="numeric"
              defaultValue={String(settings.tips.max_percent)}
              error={errors['tips.max_percent']}
            />
          </fieldset>
          {Object.keys(errors).length === 0 && <ErrorNote error={save.error} />}
          <button type="submit" className="primary" disabled={save.isPending}>
            {t.save}
          </button>
        </fieldset>
      </form>
    </section>
  )
}

/** The person's own password: the current one, then the new one twice. */
function Password() {
  const [done, setDone] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const change = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/auth/password', {
          body: {
            current_password: String(form.get('current') ?? ''),
            new_password: String(form.get('new') ?? ''),
          },
        }),
      ),
    onSuccess: () => setDone(t.passwordChanged),
  })
  const errors = fieldErrors(change.error)
  return (
    <section aria-labelledby="password-h">
      <h2 id="password-h">{t.password}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setDone('')
          const form = new FormData(e.currentTarget)
          const same = form.get('new') === form.get('again')
          setMismatch(!same)
          if (same) change.mutate(form)
        }}
      >
        <Field
          label={t.currentPassword}
          name="current"
          type="password"
          autoComplete="current-password"
          error={errors.current_password}
        />
        <Field
          label={t.newPassword}
          name="new"
          type="password"
          autoComplete="new-password"
          error={errors.new_password}
        />
        <Field
          label={t.again}
          name="again"
          type="password"
          autoComplete="new-password"
          error={mismatch ? t.notSame : undefined}
        />
        {Object.keys(errors).length === 0 && <ErrorNote error={change.error} />}
        <button type="submit" disabled={change.isPending}>
          {t.changePassword}
        </button>
      </form>
    </section>
  )
}
