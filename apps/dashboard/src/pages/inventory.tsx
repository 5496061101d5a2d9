import { unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { ProductPicker } from '../parts/product-picker.tsx'
import { Title } from '../parts/title.tsx'
import { useProductNames } from '../product-names.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.inventory

export interface InventorySearch {
  product_id?: string
  location_id?: string
}

/** Inventory: levels and alerts of a location; one item's stock, deliveries, counts, write-offs, transfers, movements. */
export function InventoryPage() {
  const shop = useShop()
  const search = useSearch({ from: '/inventory' })
  const navigate = useNavigate({ from: '/inventory' })
  const locationId = search.location_id ?? shop.locations[0]?.id
  if (!locationId) return <Empty>{t.noLocations}</Empty>
  const setSearch = (next: InventorySearch) => navigate({ search: { ...search, ...next } })
  return (
    <>
      <Title text={t.title} />
      <div className="filters">
        <SelectField
          label={strings.common.location}
          value={locationId}
          onChange={(e) => setSearch({ location_id: e.target.value })}
        >
          {shop.locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <ProductPicker label={t.findItem} onPick={(p) => setSearch({ product_id: p.id })} />
      </div>
      {search.product_id ? (
        <ItemStock productId={search.product_id} locationId={locationId} />
      ) : (
        <Levels locationId={locationId} />
      )}
    </>
  )
}

function Levels({ locationId }: { locationId: string }) {
  const shop = useShop()
  const [lowOnly, setLowOnly] = useState(false)
  const pager = useCursor(`${locationId} ${lowOnly}`)
  const levels = useQuery({
    queryKey: ['inventory', lowOnly ? 'alerts' : 'levels', locationId, pager.cursor],
    queryFn: () =>
      lowOnly
        ? unwrap(
            api().GET('/api/v1/inventory/alerts', {
              params: { query: { location_id: locationId, limit: 50, cursor: pager.cursor } },
            }),
          )
        : unwrap(
            api().GET('/api/v1/inventory/levels', {
              params: { query: { location_id: locationId, limit: 50, cursor: pager.cursor } },
            }),
          ),
  })
  const names = useProductNames(levels.data?.data.map((l) => l.product_id) ?? [])
  return (
    <section aria-labelledby="levels-h">
      <h2 id="levels-h">{t.levels}</h2>
      <div className="check">
        <input id="low-only" type="checkbox" checked={lowOnly} onChange={(e) => setLowOnly(e.target.checked)} />
        <label htmlFor="low-only">{t.lowOnly}</label>
      </div>
      <ErrorNote error={levels.error} />
      {levels.data &&
        (levels.data.data.length === 0 ? (
          <Empty>{lowOnly ? t.noAlerts : t.noLevels}</Empty>
        ) : (
          <>
            <table className="list">
              <thead>
                <tr>
                  <th scope="col">{strings.common.item}</th>
                  <th scope="col" className="num">
                    {t.onHand}
                  </th>
                  <th scope="col" className="num">
                    {t.reorderPoint}
                  </th>
                  <th scope="col">{t.state}</th>
                </tr>
              </thead>
              <tbody>
                {levels.data.data.map((l) => (
                  <tr key={l.id}>
                    <td>
                      <Link to="/inventory" search={{ product_id: l.product_id, location_id: locationId }}>
                        {names[l.product_id] ?? l.product_id}
                      </Link>
                    </td>
                    <td className="num">{shop.fmt.number(l.on_hand)}</td>
                    <td className="num">{shop.fmt.number(l.reorder_point)}</td>
                    <td>
                      <span className={`status status-${l.status}`}>{t.states[l.status]}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={levels.data.pagination.nextCursor} />
          </>
        ))}
    </section>
  )
}

const RECORDS = ['received', 'count', 'damaged', 'theft', 'return', 'correction'] as const

function ItemStock({ productId, locationId }: { productId: string; locationId: string }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const movementsPage = useCursor(`${productId} ${locationId}`)
  const product = useQuery({
    queryKey: ['product', productId],
    queryFn: () => unwrap(api().GET('/api/v1/products/{id}', { params: { path: { id: productId } } })),
  })
  const levels = useQuery({
    queryKey: ['inventory', 'levels', 'item', productId],
    queryFn: () =>
      unwrap(api().GET('/api/v1/inventory/levels', { params: { query: { product_id: productId, limit: 100 } } })),
  })
  const movements = useQuery({
    queryKey: ['inventory', 'movements', productId, locationId, movementsPage.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/inventory/movements', {
          params: {
            query: {
              product_id: productId,
              location_id: locationId,
              order: 'newest',
              limit: 25,
              cursor: movementsPage.cursor,
            },
          },
        }),
      ),
  })
  const refresh = () => queries.invalidateQueries({ queryKey: ['inventory'] })
  const record = useMutation({
    mutationFn: ({ reason, quantity, note }: { reason: (typeof RECORDS)[number]; quantity: number; note: string }) =>
      unwrap(
        api().POST('/api/v1/inventory/adjust', {
          body: {
            product_id: productId,
            location_id: locationId,
            reason,
            // Write-offs are typed as what was lost; the API takes them as a negative change.
            quantity: reason === 'damaged' || reason === 'theft' ? -quantity : quantity,
            note: note || undefined,
          },
        }),
      ),
    onSuccess: (answer) => {
      setDone(t.recorded(answer.data.quantity_after))
      refresh()
    },
  })
  const reorder = useMutation({
    mutationFn: (value: string) =>
      unwrap(
        api().PUT('/api/v1/inventory/reorder-points', {
          body: {
            product_id: productId,
            location_id: locationId,
            reorder_point: value.trim() === '' ? null : numberOf(value),
          },
        }),
      ),
    onSuccess: () => {
      setDone(t.reorderSaved)
      refresh()
    },
  })
  const here = levels.data?.data.find((l) => l.location_id === locationId && l.variant_id === null)
  const errors = fieldErrors(record.error)
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setDone('')
    const form = new FormData(event.currentTarget)
    record.mutate({
      reason: String(form.get('reason')) as (typeof RECORDS)[number],
      quantity: numberOf(String(form.get('quantity') ?? '')),
      note: String(form.get('note') ?? '').trim(),
    })
  }
  const locationName = shop.locations.find((l) => l.id === locationId)?.name ?? ''
  return (
    <>
      <section aria-labelledby="item-h">
        <h2 id="item-h">{product.data ? t.itemAt(product.data.data.name, locationName) : strings.common.loading}</h2>
        {done && <DoneNote>{done}</DoneNote>}
        {product.data && !product.data.data.track_inventory && <p className="notice">{t.untracked}</p>}
        <dl className="figures">
          <div>
            <dt>{t.onHand}</dt>
            <dd>{shop.fmt.number(here?.on_hand ?? 0)}</dd>
          </div>
          <div>
            <dt>{t.reorderPoint}</dt>
            <dd>{shop.fmt.number(here?.reorder_point ?? null)}</dd>
          </div>
        </dl>
        {levels.data && levels.data.data.length > 1 && (
          <p className="muted">
            {levels.data.data
              .filter((l) => l.variant_id === null)
              .map((l) => `${shop.locations.find((x) => x.id === l.location_id)?.name}: ${shop.fmt.number(l.on_hand)}`)
              .join(' · ')}
          </p>
        )}
      </section>
      {shop.can('inventory:write') && (
        <section aria-labelledby="record-h">
          <h2 id="record-h">{t.record}</h2>
          <form onSubmit={submit} noValidate className="panel">
            <SelectField label={t.what} name="reason" defaultValue="received" error={errors.reason}>
              {RECORDS.map((r) => (
                <option key={r} value={r}>
                  {t.reasons[r]}
                </option>
              ))}
            </SelectField>
            <Field
              label={t.quantity}
              name="quantity"
              inputMode="numeric"
              hint={t.quantityHint}
              error={errors.quantity}
            />
            <Field label={t.note} name="note" maxLength={500} error={errors.note} />
            {Object.keys(errors).length === 0 && <ErrorNote error={record.error} />}
            <button type="submit" className="primary" disabled={record.isPending}>
              {t.recordButton}
            </button>
          </form>
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault()
              reorder.mutate(String(new FormData(e.currentTarget).get('reorder') ?? ''))
            }}
          >
            <Field
              label={t.reorderPoint}
              name="reorder"
              inputMode="numeric"
              hint={t.reorderHint}
              key={here?.reorder_point ?? 'none'}
              defaultValue={here?.reorder_point ?? ''}
              error={fieldErrors(reorder.error).reorder_point}
            />
            <button type="submit" disabled={reorder.isPending}>
              {strings.common.save}
            </button>
            {Object.keys(fieldErrors(reorder.error)).length === 0 && <ErrorNote error={reorder.error} />}
          </form>
          <Transfer
            productId={productId}
            fromId={locationId}
            onDone={(text) => {
              setDone(text)
              refresh()
            }}
          />
        </section>
      )}
      <section aria-labelledby="movements-h">
        <h2 id="movements-h">{t.movements}</h2>
        <ErrorNote error={movements.error} />
        {movements.data &&
          (movements.data.data.length === 0 ? (
            <Empty>{t.noMovements}</Empty>
          ) : (
            <>
              <table className="list">
                <thead>
                  <tr>
                    <th scope="col">{t.when}</th>
                    <th scope="col">{t.reason}</th>
                    <th scope="col" className="num">
                      {t.change}
                    </th>
                    <th scope="col" className="num">
                      {t.after}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {movements.data.data.map((m) => (
                    <tr key={m.id}>
                      <td>{shop.fmt.dateTime(m.occurred_at)}</td>
                      <td>
                        {t.reasons[m.reason as keyof typeof t.reasons] ?? m.reason}
                        {m.note && <small className="muted"> · {m.note}</small>}
                      </td>
                      <td className="num">{m.quantity > 0 ? `+${m.quantity}` : m.quantity}</td>
                      <td className="num">{m.quantity_after}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager pager={movementsPage} nextCursor={movements.data.pagination.nextCursor} />
            </>
          ))}
      </section>
      <p>
        <Link to="/inventory" search={{ location_id: locationId }}>
          {t.allItems}
        </Link>
      </p>
    </>
  )
}

function Transfer({
  productId,
  fromId,
  onDone,
}: {
  productId: string
  fromId: string
  onDone: (text: string) => void
}) {
  const shop = useShop()
  const others = shop.locations.filter((l) => l.id !== fromId)
  const move = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().POST('/api/v1/inventory/transfer', {
          body: {
            from_location_id: fromId,
            to_location_id: String(form.get('to')),
            lines: [{ product_id: productId, quantity: numberOf(String(form.get('quantity') ?? '')) }],
          },
        }),
      ),
    onSuccess: () => onDone(t.transferred),
  })
  if (others.length === 0) return null
  const errors = fieldErrors(move.error)
  return (
    <form
      className="panel"
      aria-labelledby="transfer-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        move.mutate(new FormData(e.currentTarget))
      }}
    >
      <h3 id="transfer-h">{t.transfer}</h3>
      <SelectField label={t.to} name="to" error={errors.to_location_id}>
        {others.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </SelectField>
      <Field label={t.quantity} name="quantity" inputMode="numeric" error={errors['lines.0.quantity']} />
      {Object.keys(errors).length === 0 && <ErrorNote error={move.error} />}
      <button type="submit" disabled={move.isPending}>
        {t.transferButton}
      </button>
    </form>
  )
}
