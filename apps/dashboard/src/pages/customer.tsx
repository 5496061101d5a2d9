import { type components, unwrap } from '@opentill/client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useParams } from '@tanstack/react-router'
import { useState } from 'react'
import { api, fieldErrors } from '../api.ts'
import { DoneNote, Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { CustomerFields, customerFields, customerName } from './customers.tsx'

const t = strings.customers
type Customer = components['schemas']['Customer']

/** A customer: their details (edited with the API's checks by field), loyalty, and orders with what they spent. */
export function CustomerPage() {
  const { customerId } = useParams({ from: '/customers/$customerId' })
  const customer = useQuery({
    queryKey: ['customer', customerId],
    queryFn: () => unwrap(api().GET('/api/v1/customers/{id}', { params: { path: { id: customerId } } })),
  })
  if (customer.error) return <ErrorNote error={customer.error} />
  if (!customer.data) return <p aria-busy="true">{strings.common.loading}</p>
  const c = customer.data.data
  return (
    <>
      <Title text={customerName(c)} />
      <Details customer={c} />
      <Loyalty customer={c} />
      <Orders customer={c} />
      <p>
        <Link to="/customers">{t.back}</Link>
      </p>
    </>
  )
}

function Details({ customer }: { customer: Customer }) {
  const shop = useShop()
  const queries = useQueryClient()
  const [done, setDone] = useState('')
  const save = useMutation({
    mutationFn: (form: FormData) =>
      unwrap(
        api().PATCH('/api/v1/customers/{id}', {
          params: { path: { id: customer.id } },
          body: { ...customerFields(form), version: customer.version },
        }),
      ),
    onSuccess: (answer) => {
      queries.setQueryData(['customer', customer.id], answer)
      queries.invalidateQueries({ queryKey: ['customers'] })
      setDone(t.saved)
    },
  })
  const errors = fieldErrors(save.error)
  const preferences = Object.entries(customer.preferences ?? {})
  return (
    <section aria-labelledby="details-h">
      <h2 id="details-h">{t.details}</h2>
      {done && <DoneNote>{done}</DoneNote>}
      <form
        key={customer.version}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setDone('')
          save.mutate(new FormData(e.currentTarget))
        }}
      >
        <fieldset disabled={!shop.can('customers:write')}>
          <legend className="visually-hidden">{t.details}</legend>
          <CustomerFields customer={customer} errors={errors} />
          {Object.keys(errors).length === 0 && <ErrorNote error={save.error} />}
          <button type="submit" className="primary">
            {t.save}
          </button>
        </fieldset>
      </form>
      {preferences.length > 0 && (
        <>
          <h3>{t.preferences}</h3>
          <dl className="figures">
            {preferences.map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  )
}

/** Membership: balance, tier and the way to the next one, and the points history. */
function Loyalty({ customer }: { customer: Customer }) {
  const shop = useShop()
  const queries = useQueryClient()
  const pager = useCursor(customer.id)
  const member = useQuery({
    queryKey: ['member', customer.id, pager.cursor],
    queryFn: async () => {
      const answer = await api().GET('/api/v1/loyalty/members/{customerId}', {
        params: { path: { customerId: customer.id }, query: { limit: 10, cursor: pager.cursor } },
      })
      // Not a member (yet): a 404, which is no error here.
      if (answer.response.status === 404) return null
      return unwrap(Promise.resolve(answer))
    },
    enabled: shop.can('loyalty:read'),
  })
  const enrol = useMutation({
    mutationFn: () => unwrap(api().POST('/api/v1/loyalty/members', { body: { customer_id: customer.id } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['member', customer.id] }),
  })
  if (!shop.can('loyalty:read')) return null
  const m = member.data?.data
  return (
    <section aria-labelledby="loyalty-h">
      <h2 id="loyalty-h">{t.loyalty}</h2>
      <ErrorNote error={member.error ?? enrol.error} />
      {member.data === null && (
        <>
          <Empty>{t.notMember}</Empty>
          {shop.can('loyalty:write') && (
            <button type="button" onClick={() => enrol.mutate()} disabled={enrol.isPending}>
              {t.enrol}
            </button>
          )}
        </>
      )}
      {m && (
        <>
          <dl className="figures">
            <div>
              <dt>{t.balance}</dt>
              <dd>{shop.fmt.number(m.balance)}</dd>
            </div>
            <div>
              <dt>{t.tier}</dt>
              <dd>{m.tier === null ? '—' : typeof m.tier === 'string' ? m.tier : m.tier.name}</dd>
            </div>
            <div>
              <dt>{t.lifetimeSpend}</dt>
              <dd>{shop.fmt.money(m.lifetime_spend)}</dd>
            </div>
            <div>
              <dt>{t.lifetimePoints}</dt>
              <dd>{shop.fmt.number(m.lifetime_points)}</dd>
            </div>
          </dl>
          {m.next_tier && <p>{t.nextTier(m.next_tier.name, shop.fmt.number(m.next_tier.remaining))}</p>}
          <h3>{t.history}</h3>
          {m.history.length === 0 ? (
            <Empty>{t.noHistory}</Empty>
          ) : (
            <ul className="plain">
              {m.history.map((h) => (
                <li key={h.id} className="row">
                  <span>
                    {shop.fmt.dateTime(h.created_at)} · {t.kinds[h.kind] ?? h.kind}
                    {h.reason && <small className="muted"> · {h.reason}</small>}
                  </span>
                  <span>
                    {h.points > 0 ? `+${h.points}` : h.points} → {h.balance_after}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <Pager pager={pager} nextCursor={m.history_pagination.nextCursor} />
        </>
      )}
    </section>
  )
}

function Orders({ customer }: { customer: Customer }) {
  const shop = useShop()
  const pager = useCursor(customer.id)
  const orders = useQuery({
    queryKey: ['customer-orders', customer.id, pager.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/customers/{id}/orders', {
          params: { path: { id: customer.id }, query: { limit: 10, cursor: pager.cursor } },
        }),
      ),
    enabled: shop.can('orders:read'),
  })
  if (!shop.can('orders:read')) return null
  return (
    <section aria-labelledby="orders-h">
      <h2 id="orders-h">{t.orders}</h2>
      <ErrorNote error={orders.error} />
      {orders.data &&
        (orders.data.data.length === 0 ? (
          <Empty>{t.noOrders}</Empty>
        ) : (
          <>
            <ul className="plain">
              {orders.data.data.map((o) => (
                <li key={o.id} className="row">
                  <Link to="/orders/$orderId" params={{ orderId: o.id }}>
                    {strings.orders.numbered(o.number)}
                  </Link>
                  <span>
                    {shop.fmt.dateTime(o.sold_at ?? o.created_at)} · {strings.orders.statuses[o.status]} ·{' '}
                    {shop.fmt.money(o.total)}
                  </span>
                </li>
              ))}
            </ul>
            <Pager pager={pager} nextCursor={orders.data.pagination.nextCursor} />
          </>
        ))}
    </section>
  )
}
