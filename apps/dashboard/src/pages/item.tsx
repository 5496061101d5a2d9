import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useParams } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Confirm } from '../parts/confirm.tsx'
import { Field } from '../parts/field.tsx'
import { DoneNote, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { Bundle, Markdowns, Modifiers, Prices } from './item-pricing.tsx'

const t = strings.items
type Product = components['schemas']['Product']

/** One item: its details and price, sold out per location, its variants, archive. */
export function ItemPage() {
  const { productId } = useParams({ from: '/items/$productId' })
  const product = useQuery({
    queryKey: ['product', productId],
    queryFn: () => unwrap(api().GET('/api/v1/products/{id}', { params: { path: { id: productId } } })),
  })
  if (product.error) return <ErrorNote error={product.error} />
  if (!product.data) return <p aria-busy="true">{strings.common.loading}</p>
  const p = product.data.data
  return (
    <>
      <Title text={p.name}>
        <span className="status">{p.is_active ? t.active : t.archived}</span>
      </Title>
      <Details product={p} />
      <Prices product={p} />
      <Markdowns product={p} />
      <SoldOut product={p} />
      <Variants product={p} />
      <Modifiers product={p} />
      <Bundle product={p} />
      <p>
        <Link to="/items">{t.back}</Link> ·{' '}
        <Link to="/inventory" search={{ product_id: p.id }}>
          {t.stock}
        </Link>
      </p>
    </>
  )
}

function Details({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const [archiving, setArchiving] = useState(false)
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      unwrap(
        api().PATCH('/api/v1/products/{id}', {
          params: { path: { id: product.id } },
          body: { ...body, version: product.version } as never,
        }),
      ),
    onSuccess: (answer) => {
      queries.setQueryData(['product', product.id], answer)
      queries.invalidateQueries({ queryKey: ['products'] })
      setArchiving(false)
      setDone(
        answer.data.is_active === product.is_active ? t.saved : answer.data.is_active ? t.restored : t.archivedDone,
      )
    },
  })
  const errors = fieldErrors(save.error)
  const writable = shop.can('catalog:write')
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setDone('')
    const form = new FormData(event.currentTarget)
    const text = (name: string) => String(form.get(name) ?? '').trim()
    const cost = text('cost')
    save.mutate({
      name: text('name'),
      sku: text('sku'),
      base_price: numberOf(text('base_price')),
      cost: cost === '' ? null : numberOf(cost),
      barcodes: text('barcodes')
        .split(/[\s,]+/)
        .filter(Boolean),
      track_inventory: form.get('track_inventory') === 'on',
    })
  }
  return (
    <section aria-labelledby="details-h">
      <h2 id="details-h">{t.details}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <form key={product.version} onSubmit={submit} noValidate>
        <fieldset disabled={!writable}>
          <legend className="visually-hidden">{t.details}</legend>
          <Field label={t.name} name="name" defaultValue={product.name} maxLength={200} error={errors.name} />
          <Field label={t.sku} name="sku" defaultValue={product.sku} maxLength={100} error={errors.sku} />
          <Field
            label={t.priceIn(shop.currency)}
            name="base_price"
            inputMode="decimal"
            defaultValue={shop.fmt.amount(product.base_price)}
            error={errors.base_price}
          />
          <Field
            label={t.cost}
            name="cost"
            inputMode="decimal"
            defaultValue={product.cost === null ? '' : shop.fmt.amount(product.cost)}
            error={errors.cost}
          />
          <Field
            label={t.barcodes}
            name="barcodes"
            hint={t.barcodesHint}
            defaultValue={product.barcodes.join(' ')}
            error={Object.entries(errors).find(([k]) => k.startsWith('barcodes'))?.[1]}
          />
          <div className="check">
            <input id="item-track" name="track_inventory" type="checkbox" defaultChecked={product.track_inventory} />
            <label htmlFor="item-track">{t.track}</label>
          </div>
          {Object.keys(errors).length === 0 && <ErrorNote error={save.error} />}
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              {t.save}
            </button>
            {product.is_active ? (
              <button type="button" className="danger" onClick={() => setArchiving(true)}>
                {t.archive}
              </button>
            ) : (
              <button type="button" onClick={() => save.mutate({ is_active: true })}>
                {t.restore}
              </button>
            )}
          </div>
        </fieldset>
      </form>
      <Confirm
        open={archiving}
        title={t.archiveTitle(product.name)}
        action={t.archive}
        busy={save.isPending}
        onConfirm={() => save.mutate({ is_active: false })}
        onCancel={() => setArchiving(false)}
      >
        <p>{t.archiveWhat}</p>
        <ErrorNote error={save.error} />
      </Confirm>
    </section>
  )
}

/** "86" an item at a location, whatever its stock, and back. */
function SoldOut({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const marks = useQuery({
    queryKey: ['sold-out', product.id],
    queryFn: async () => {
      const lists = await Promise.all(
        shop.locations.map((l) =>
          unwrap(
            api().GET('/api/v1/locations/{location_id}/sold-out', {
              params: { path: { location_id: l.id }, query: { limit: 200 } },
            }),
          ),
        ),
      )
      return new Set(
        lists.flatMap((list) => list.data.filter((m) => m.item_id === product.id).map((m) => m.location_id)),
      )
    },
  })
  const toggle = useMutation({
    mutationFn: async ({ locationId, soldOut }: { locationId: string; soldOut: boolean }) => {
      const params = { path: { location_id: locationId, item_id: product.id } }
      if (soldOut) await unwrap(api().PUT('/api/v1/locations/{location_id}/sold-out/{item_id}', { params }))
      else await unwrap(api().DELETE('/api/v1/locations/{location_id}/sold-out/{item_id}', { params }))
    },
    onSuccess: () => queries.invalidateQueries({ queryKey: ['sold-out', product.id] }),
  })
  if (shop.locations.length === 0) return null
  return (
    <section aria-labelledby="soldout-h">
      <h2 id="soldout-h">{t.soldOut}</h2>
      <p className="muted">{t.soldOutHelp}</p>
      <ul className="plain">
        {shop.locations.map((l) => {
          const out = marks.data?.has(l.id) ?? false
          return (
            <li key={l.id} className="row">
              <span>
                {l.name}: <strong>{out ? t.isSoldOut : t.isAvailable}</strong>
              </span>
              {shop.can('inventory:write') && (
                <button
                  type="button"
                  disabled={!marks.data || toggle.isPending}
                  onClick={() => toggle.mutate({ locationId: l.id, soldOut: !out })}
                >
                  {out ? t.markAvailable(l.name) : t.markSoldOut(l.name)}
                </button>
              )}
            </li>
          )
        })}
      </ul>
      <ErrorNote error={toggle.error ?? marks.error} />
    </section>
  )
}

function Variants({ product }: { product: Product }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [adding, setAdding] = useState(false)
  const variants = useQuery({
    queryKey: ['variants', product.id],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/products/{id}/variants', {
          params: { path: { id: product.id }, query: { limit: 100 } },
        }),
      ),
  })
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim()
      return unwrap(
        api().POST('/api/v1/products/{id}/variants', {
          params: { path: { id: product.id } },
          body: { name: text('name'), sku: text('sku'), price: text('price') === '' ? null : numberOf(text('price')) },
        }),
      )
    },
    onSuccess: () => {
      setAdding(false)
      queries.invalidateQueries({ queryKey: ['variants', product.id] })
    },
  })
  const errors = fieldErrors(create.error)
  return (
    <section aria-labelledby="variants-h">
      <h2 id="variants-h">{t.variants}</h2>
      <ErrorNote error={variants.error} />
      {variants.data && variants.data.data.length === 0 && <p className="empty">{t.noVariants}</p>}
      {variants.data && variants.data.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t.name}</th>
              <th scope="col">{t.sku}</th>
              <th scope="col" className="num">
                {t.price}
              </th>
            </tr>
          </thead>
          <tbody>
            {variants.data.data.map((v) => (
              <tr key={v.id}>
                <td>{v.name}</td>
                <td>{v.sku}</td>
                <td className="num">{shop.fmt.money(v.price ?? product.base_price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shop.can('catalog:write') &&
        (adding ? (
          <form
            className="panel"
            aria-labelledby="new-variant-h"
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              create.mutate(new FormData(e.currentTarget))
            }}
          >
            <h3 id="new-variant-h">{t.newVariant}</h3>
            <Field label={t.name} name="name" error={errors.name} />
            <Field label={t.sku} name="sku" error={errors.sku} />
            <Field label={t.price} name="price" inputMode="decimal" hint={t.variantPriceHint} error={errors.price} />
            {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
            <div className="actions">
              <button type="submit" className="primary" disabled={create.isPending}>
                {t.addVariant}
              </button>
              <button type="button" onClick={() => setAdding(false)}>
                {strings.common.cancel}
              </button>
            </div>
          </form>
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            {t.addVariant}
          </button>
        ))}
    </section>
  )
}
