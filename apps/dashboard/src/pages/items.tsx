import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { api, fieldErrors, numberOf } from '../api.ts'
import { Field } from '../parts/field.tsx'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { SearchForm } from '../parts/search-form.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { CsvTools, PriceChange } from './items-bulk.tsx'

const t = strings.items
type Product = components['schemas']['Product']

/** Items: search the catalog, open an item, add one. */
export function ItemsPage() {
  const shop = useShop()
  const [search, setSearch] = useState('')
  const [adding, setAdding] = useState(false)
  const [chosen, setChosen] = useState<Map<string, Product>>(new Map())
  const [changed, setChanged] = useState('')
  const pager = useCursor(search)
  const writable = shop.can('catalog:write')
  const choose = (product: Product, on: boolean) =>
    setChosen((current) => {
      const next = new Map(current)
      if (on) next.set(product.id, product)
      else next.delete(product.id)
      return next
    })
  const products = useQuery({
    queryKey: ['products', search, pager.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/products', {
          params: { query: { limit: 25, cursor: pager.cursor, q: search || undefined } },
        }),
      ),
  })
  return (
    <>
      <Title text={t.title}>
        {shop.can('catalog:write') && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            {t.add}
          </button>
        )}
      </Title>
      {adding && <NewItem onClose={() => setAdding(false)} />}
      {writable && <CsvTools />}
      {changed && <DoneNote>{changed}</DoneNote>}
      {writable && chosen.size > 0 && (
        <PriceChange
          chosen={[...chosen.values()]}
          onDone={(message) => {
            setChosen(new Map())
            setChanged(message)
          }}
        />
      )}
      <SearchForm label={t.search} hint={t.searchHint} value={search} onSearch={setSearch} />
      <ErrorNote error={products.error} />
      {products.data &&
        (products.data.data.length === 0 ? (
          <Empty>{search ? t.noneFound(search) : t.noneYet}</Empty>
        ) : (
          <>
            <table className="list">
              <caption className="visually-hidden">{t.title}</caption>
              <thead>
                <tr>
                  {writable && (
                    <th scope="col">
                      <span className="visually-hidden">{t.choose}</span>
                    </th>
                  )}
                  <th scope="col">{t.name}</th>
                  <th scope="col">{t.sku}</th>
                  <th scope="col" className="num">
                    {t.price}
                  </th>
                  <th scope="col">{t.state}</th>
                </tr>
              </thead>
              <tbody>
                {products.data.data.map((p) => (
                  <tr key={p.id}>
                    {writable && (
                      <td>
                        {/* The whole 44 px cell's worth of label ticks it, not only the box. */}
                        <label className="hit">
                          <input
                            type="checkbox"
                            aria-label={t.chooseItem(p.name)}
                            checked={chosen.has(p.id)}
                            onChange={(e) => choose(p, e.target.checked)}
                          />
                        </label>
                      </td>
                    )}
                    <td>
                      <Link to="/items/$productId" params={{ productId: p.id }}>
                        {p.name}
                      </Link>
                    </td>
                    <td>{p.sku}</td>
                    <td className="num">{shop.fmt.money(p.base_price)}</td>
                    <td>
                      {p.is_active ? t.active : t.archived}
                      {!p.track_inventory && ` · ${t.untracked}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={products.data.pagination.nextCursor} />
          </>
        ))}
    </>
  )
}

function NewItem({ onClose }: { onClose: () => void }) {
  const queries = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim()
      const cost = text('cost')
      return unwrap(
        api().POST('/api/v1/products', {
          body: {
            name: text('name'),
            sku: text('sku'),
            base_price: numberOf(text('base_price')),
            cost: cost === '' ? null : numberOf(cost),
            track_inventory: form.get('track_inventory') === 'on',
          },
        }),
      )
    },
    onSuccess: (answer) => {
      queries.invalidateQueries({ queryKey: ['products'] })
      navigate({ to: '/items/$productId', params: { productId: answer.data.id } })
    },
  })
  const errors = fieldErrors(create.error)
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    create.mutate(new FormData(event.currentTarget))
  }
  return (
    <form className="panel" aria-labelledby="new-item-h" onSubmit={submit} noValidate>
      <h2 id="new-item-h">{t.newTitle}</h2>
      <Field label={t.name} name="name" required maxLength={200} error={errors.name} />
      <Field label={t.sku} name="sku" required maxLength={100} error={errors.sku} hint={t.skuHint} />
      <Field label={t.price} name="base_price" inputMode="decimal" required error={errors.base_price} />
      <Field label={t.cost} name="cost" inputMode="decimal" error={errors.cost} hint={t.costHint} />
      <div className="check">
        <input id="new-track" name="track_inventory" type="checkbox" defaultChecked />
        <label htmlFor="new-track">{t.track}</label>
      </div>
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {t.create}
        </button>
        <button type="button" onClick={onClose}>
          {strings.common.cancel}
        </button>
      </div>
    </form>
  )
}
