import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { localDay, startOfDay } from '../format.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { ProductPicker } from '../parts/product-picker.tsx'
import { useProductNames } from '../product-names.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.pricing
type Product = components['schemas']['Product']
type PriceList = components['schemas']['PriceList']

/**
 * The item's price at each location and on each price list: a list's entry for the item is set or cleared by
 * writing the list's prices back with it (the API replaces a list's prices whole, under its version); a location
 * without a list of its own gets one.
 */
export function Prices({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const lists = useQuery({
    queryKey: ['price-lists'],
    queryFn: () => unwrap(api().GET('/api/v1/price-lists', { params: { query: { limit: 200 } } })),
  })
  const save = useMutation({
    mutationFn: async ({ list, price }: { list: PriceList; price: number | null }) => {
      const others = list.prices
        .filter((p) => p.product_id !== product.id || p.variant_id !== null)
        .map((p) => ({ product_id: p.product_id, variant_id: p.variant_id, price: p.price }))
      const prices = price === null ? others : [...others, { product_id: product.id, variant_id: null, price }]
      return unwrap(
        api().PATCH('/api/v1/price-lists/{id}', {
          params: { path: { id: list.id } },
          body: { prices, version: list.version },
        }),
      )
    },
    onSuccess: () => {
      setDone(t.saved)
      queries.invalidateQueries({ queryKey: ['price-lists'] })
    },
  })
  const create = useMutation({
    mutationFn: ({ locationId, price }: { locationId: string; price: number }) =>
      unwrap(
        api().POST('/api/v1/price-lists', {
          body: {
            name: t.listOf(shop.locations.find((l) => l.id === locationId)?.name ?? ''),
            location_id: locationId,
            prices: [{ product_id: product.id, price }],
          },
        }),
      ),
    onSuccess: () => {
      setDone(t.saved)
      queries.invalidateQueries({ queryKey: ['price-lists'] })
    },
  })
  const all = lists.data?.data ?? []
  const without = shop.locations.filter((l) => !all.some((list) => list.location_id === l.id))
  const errors = fieldErrors(save.error ?? create.error)
  const where = (list: PriceList) =>
    list.location_id ? (shop.locations.find((l) => l.id === list.location_id)?.name ?? list.location_id) : t.everywhere
  return (
    <section aria-labelledby="prices-h">
      <h2 id="prices-h">{t.title}</h2>
      <p className="muted">{t.help(shop.fmt.money(product.base_price))}</p>
      {done && <DoneNote>{done}</DoneNote>}
      <ul className="plain">
        {all.map((list) => {
          const entry = list.prices.find((p) => p.product_id === product.id && p.variant_id === null)
          return (
            <li key={list.id}>
              <PriceRow
                label={
                  list.location_id && list.name === t.listOf(where(list))
                    ? t.atLocation(where(list))
                    : t.onList(list.name, where(list))
                }
                note={list.is_active ? undefined : t.inactive}
                price={entry?.price ?? null}
                busy={save.isPending}
                onSave={(price) => save.mutate({ list, price })}
              />
            </li>
          )
        })}
        {without.map((l) => (
          <li key={l.id}>
            <PriceRow
              label={t.atLocation(l.name)}
              price={null}
              busy={create.isPending}
              onSave={(price) => price !== null && create.mutate({ locationId: l.id, price })}
            />
          </li>
        ))}
      </ul>
      {Object.keys(errors).length > 0 ? (
        <p className="error" role="alert">
          {Object.values(errors).join(' ')}
        </p>
      ) : (
        <ErrorNote error={save.error ?? create.error ?? lists.error} />
      )}
    </section>
  )
}

function PriceRow({
  label,
  note,
  price,
  busy,
  onSave,
}: {
  label: string
  note?: string
  price: number | null
  busy: boolean
  onSave: (price: number | null) => void
}) {
  const shop = useShop()
  const [text, setText] = useState(price === null ? '' : shop.fmt.amount(price))
  return (
    <form
      className="inline"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        onSave(text.trim() === '' ? null : numberOf(text))
      }}
    >
      <Field
        label={label}
        hint={note ?? (price === null ? t.usesBase : undefined)}
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" disabled={busy || text === (price === null ? '' : shop.fmt.amount(price))}>
        {strings.common.save}
      </button>
    </form>
  )
}

/** Markdowns of the item: a percentage or an amount off until a day, and ending one early. */
export function Markdowns({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [ending, setEnding] = useState<string | null>(null)
  const markdowns = useQuery({
    queryKey: ['markdowns', product.id],
    queryFn: () => unwrap(api().GET('/api/v1/markdowns', { params: { query: { product_id: product.id, limit: 50 } } })),
  })
  const refresh = () => queries.invalidateQueries({ queryKey: ['markdowns', product.id] })
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const until = String(form.get('until') ?? '')
      return unwrap(
        api().POST('/api/v1/markdowns', {
          body: {
            name: t.markdownOf(product.name),
            kind: String(form.get('kind')) as 'percentage' | 'amount',
            value: numberOf(String(form.get('value') ?? '')),
            product_ids: [product.id],
            ends_at: until ? startOfDay(until, shop.timeZone) : null,
          },
        }),
      )
    },
    onSuccess: refresh,
  })
  const end = useMutation({
    mutationFn: (id: string) =>
      unwrap(api().PATCH('/api/v1/markdowns/{id}', { params: { path: { id } }, body: { is_active: false } })),
    onSuccess: () => {
      setEnding(null)
      refresh()
    },
  })
  const errors = fieldErrors(create.error)
  const live = (markdowns.data?.data ?? []).filter((m) => m.is_active)
  const today = localDay(new Date(), shop.timeZone)
  return (
    <section aria-labelledby="markdowns-h">
      <h2 id="markdowns-h">{t.markdowns}</h2>
      {live.length === 0 ? (
        <p className="empty">{t.noMarkdowns}</p>
      ) : (
        <ul className="plain">
          {live.map((m) => (
            <li key={m.id} className="row">
              <span>
                {m.kind === 'percentage' ? t.percentOff(m.value) : t.amountOff(shop.fmt.money(m.value))}
                {m.ends_at && <small className="muted"> {t.until(shop.fmt.dateTime(m.ends_at))}</small>}
              </span>
              {shop.can('catalog:write') && (
                <button type="button" onClick={() => setEnding(m.id)}>
                  {t.endMarkdown}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {shop.can('catalog:write') && (
        <form
          className="inline"
          noValidate
          aria-label={t.markDown}
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate(new FormData(e.currentTarget))
          }}
        >
          <SelectField label={t.kind} name="kind" error={errors.kind}>
            <option value="percentage">{t.kinds.percentage}</option>
            <option value="amount">{t.kinds.amount(shop.currency)}</option>
          </SelectField>
          <Field label={t.value} name="value" inputMode="decimal" error={errors.value} />
          <Field label={t.lastDay} name="until" type="date" min={today} hint={t.lastDayHint} error={errors.ends_at} />
          <button type="submit" disabled={create.isPending}>
            {t.markDown}
          </button>
        </form>
      )}
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error ?? markdowns.error} />}
      <Confirm
        open={ending !== null}
        title={t.endTitle}
        action={t.endMarkdown}
        busy={end.isPending}
        onConfirm={() => ending && end.mutate(ending)}
        onCancel={() => setEnding(null)}
      >
        <p>{t.endWhat(product.name)}</p>
        <ErrorNote error={end.error} />
      </Confirm>
    </section>
  )
}

/** A bundle: the item sold as a set of others, whose stock each sale draws down. */
export function Bundle({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [draft, setDraft] = useState<{ product_id: string; name: string; quantity: number }[] | null>(null)
  const bundle = useQuery({
    queryKey: ['bundle', product.id],
    queryFn: async () =>
      (await unwrap(api().GET('/api/v1/bundles', { params: { query: { product_id: product.id, limit: 1 } } })))
        .data[0] ?? null,
  })
  const names = useProductNames(bundle.data?.components.map((c) => c.product_id) ?? [])
  const save = useMutation({
    mutationFn: (components: { product_id: string; quantity: number }[]) =>
      bundle.data
        ? unwrap(
            api().PATCH('/api/v1/bundles/{id}', {
              params: { path: { id: bundle.data.id } },
              body: { components, version: bundle.data.version },
            }),
          )
        : unwrap(api().POST('/api/v1/bundles', { body: { product_id: product.id, components } })),
    onSuccess: () => {
      setDraft(null)
      queries.invalidateQueries({ queryKey: ['bundle', product.id] })
    },
  })
  const errors = fieldErrors(save.error)
  const current = bundle.data?.components ?? []
  const editing = draft !== null
  return (
    <section aria-labelledby="bundle-h">
      <h2 id="bundle-h">{t.bundle}</h2>
      {current.length === 0 && !editing && <p className="empty">{t.notBundle}</p>}
      {current.length > 0 && !editing && (
        <ul className="plain">
          {current.map((c) => (
            <li key={`${c.product_id}-${c.variant_id}`}>
              {c.quantity} × {names[c.product_id] ?? c.product_id}
            </li>
          ))}
        </ul>
      )}
      {shop.can('catalog:write') && !editing && (
        <button
          type="button"
          onClick={() =>
            setDraft(
              current.map((c) => ({ product_id: c.product_id, name: names[c.product_id] ?? '', quantity: c.quantity })),
            )
          }
        >
          {current.length > 0 ? t.editBundle : t.makeBundle}
        </button>
      )}
      {editing && (
        <div className="panel">
          <ProductPicker
            label={t.addComponent}
            onPick={(p) =>
              p.id !== product.id &&
              setDraft((d) =>
                d?.some((c) => c.product_id === p.id)
                  ? d
                  : [...(d ?? []), { product_id: p.id, name: p.name, quantity: 1 }],
              )
            }
          />
          <ul className="plain">
            {draft.map((c, i) => (
              <li key={c.product_id}>
                <Field
                  label={t.quantityOf(c.name)}
                  type="number"
                  min={1}
                  value={c.quantity}
                  error={errors[`components.${i}.quantity`]}
                  onChange={(e) =>
                    setDraft((d) =>
                      (d ?? []).map((x) =>
                        x.product_id === c.product_id ? { ...x, quantity: Number(e.target.value) } : x,
                      ),
                    )
                  }
                />
              </li>
            ))}
          </ul>
          <ErrorNote error={save.error} />
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={draft.length === 0 || save.isPending}
              onClick={() => save.mutate(draft.map((c) => ({ product_id: c.product_id, quantity: c.quantity })))}
            >
              {t.saveBundle}
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              {strings.common.cancel}
            </button>
          </div>
        </div>
      )}
    </section>
  )
}

/** The modifier groups the item offers at the till (milk, size, extras), chosen among the store's groups. */
export function Modifiers({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const offered = useQuery({
    queryKey: ['product-modifiers', product.id],
    queryFn: () => unwrap(api().GET('/api/v1/products/{id}/modifiers', { params: { path: { id: product.id } } })),
  })
  const groups = useQuery({
    queryKey: ['modifier-groups'],
    queryFn: () => unwrap(api().GET('/api/v1/modifiers', { params: { query: { limit: 200 } } })),
  })
  const save = useMutation({
    mutationFn: (ids: string[]) =>
      unwrap(
        api().PUT('/api/v1/products/{id}/modifiers', {
          params: { path: { id: product.id } },
          body: { modifier_group_ids: ids },
        }),
      ),
    onSuccess: (answer) => {
      queries.setQueryData(['product-modifiers', product.id], answer)
      setDone(t.modifiersSaved)
    },
  })
  const chosen = new Set(offered.data?.data.map((g) => g.id) ?? [])
  const all = groups.data?.data ?? []
  const create = useMutation({
    mutationFn: async (form: FormData) => {
      const options = String(form.get('options') ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          // "Oat milk +0.50": a name, then what it adds (nothing for none).
          const [, name, price] = /^(.*?)(?:\s+\+?(-?\d+(?:[.,]\d+)?))?$/.exec(line) ?? [line, line]
          return { name: name.trim(), price_adjustment: price ? numberOf(price) : 0 }
        })
      const group = await unwrap(
        api().POST('/api/v1/modifiers', {
          body: {
            name: String(form.get('name') ?? '').trim(),
            max_selections: form.get('several') === 'on' ? null : 1,
            options,
          },
        }),
      )
      return unwrap(
        api().PUT('/api/v1/products/{id}/modifiers', {
          params: { path: { id: product.id } },
          body: { modifier_group_ids: [...chosen, group.data.id] },
        }),
      )
    },
    onSuccess: (answer) => {
      queries.setQueryData(['product-modifiers', product.id], answer)
      queries.invalidateQueries({ queryKey: ['modifier-groups'] })
      setDone(t.modifiersSaved)
    },
  })
  const createErrors = fieldErrors(create.error)
  return (
    <section aria-labelledby="modifiers-h">
      <h2 id="modifiers-h">{t.modifiers}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      {all.length === 0 ? (
        <p className="empty">{t.noModifierGroups}</p>
      ) : (
        <fieldset disabled={!shop.can('catalog:write') || save.isPending || !offered.data}>
          <legend className="visually-hidden">{t.modifiers}</legend>
          {all.map((g) => (
            <label key={g.id} className="choice">
              <input
                type="checkbox"
                checked={chosen.has(g.id)}
                onChange={(e) => {
                  setDone('')
                  const ids = [...chosen].filter((id) => id !== g.id)
                  save.mutate(e.target.checked ? [...ids, g.id] : ids)
                }}
              />
              {g.name}
              <small className="muted"> {g.options.map((o) => o.name).join(', ')}</small>
            </label>
          ))}
        </fieldset>
      )}
      <ErrorNote error={save.error ?? groups.error} />
      {shop.can('catalog:write') && (
        <details className="panel">
          <summary>{t.newGroup}</summary>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              create.mutate(new FormData(e.currentTarget))
            }}
          >
            <Field label={t.groupName} name="name" maxLength={200} error={createErrors.name} />
            <div className="field">
              <label htmlFor="group-options">{t.groupOptions}</label>
              <small id="group-options-hint" className="hint">
                {t.groupOptionsHint}
              </small>
              <textarea id="group-options" name="options" rows={4} aria-describedby="group-options-hint" />
              {Object.entries(createErrors)
                .filter(([field]) => field.startsWith('options'))
                .map(([field, message]) => (
                  <small key={field} className="field-error">
                    {message}
                  </small>
                ))}
            </div>
            <div className="check">
              <input id="group-several" name="several" type="checkbox" />
              <label htmlFor="group-several">{t.several}</label>
            </div>
            {Object.keys(createErrors).length === 0 && <ErrorNote error={create.error} />}
            <button type="submit" disabled={create.isPending}>
              {t.addGroup}
            </button>
          </form>
        </details>
      )}
    </section>
  )
}
