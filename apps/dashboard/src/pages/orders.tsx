import { unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { api } from '../api.ts'
import { addDays, startOfDay } from '../format.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Pager, useCursor } from '../parts/pager.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.orders

export interface OrdersSearch {
  number?: string
  status?: string
  location_id?: string
  register_id?: string
  customer?: string
  from?: string
  to?: string
}

const ORDER_STATUSES = ['open', 'completed', 'voided', 'partially_refunded', 'refunded'] as const
type Status = (typeof ORDER_STATUSES)[number]
const isStatus = (s: string | undefined): s is Status => ORDER_STATUSES.includes(s as Status)

/** Orders: search by number, customer, dates, status, location and register; each opens the order. */
export function OrdersPage() {
  const shop = useShop()
  const search = useSearch({ from: '/orders' })
  const navigate = useNavigate({ from: '/orders' })
  const pager = useCursor(JSON.stringify(search))
  const registers = useQuery({
    queryKey: ['registers'],
    queryFn: () => unwrap(api().GET('/api/v1/registers', { params: { query: { limit: 100 } } })),
  })
  const customers = useQuery({
    queryKey: ['customers', 'search', search.customer],
    queryFn: () => unwrap(api().GET('/api/v1/customers', { params: { query: { q: search.customer!, limit: 20 } } })),
    enabled: Boolean(search.customer) && shop.can('customers:read'),
  })
  const customerIds = customers.data?.data.map((c) => c.id) ?? []
  const customerId = customerIds[0]
  const number = search.number && /^\d+$/.test(search.number) ? Number(search.number) : undefined
  const orders = useQuery({
    queryKey: ['orders', search, customerId, pager.cursor],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/orders', {
          params: {
            query: {
              limit: 25,
              cursor: pager.cursor,
              order: 'newest',
              number,
              status: isStatus(search.status) ? search.status : undefined,
              location_id: search.location_id,
              register_id: search.register_id,
              customer_id: customerId,
              created_from: search.from ? startOfDay(search.from, shop.timeZone) : undefined,
              created_to: search.to ? startOfDay(addDays(search.to, 1), shop.timeZone) : undefined,
            },
          },
        }),
      ),
    enabled: !search.customer || customers.isSuccess,
  })

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => {
      const v = String(form.get(name) ?? '').trim()
      return v === '' ? undefined : v
    }
    navigate({
      search: {
        number: value('number'),
        status: value('status'),
        location_id: value('location_id'),
        register_id: value('register_id'),
        customer: value('customer'),
        from: value('from'),
        to: value('to'),
      },
    })
  }

  const noCustomer = search.customer && customers.isSuccess && customerIds.length === 0
  return (
    <>
      <Title text={t.title} />
      <form className="filters" onSubmit={submit} aria-label={t.search}>
        <Field label={t.number} name="number" inputMode="numeric" pattern="[0-9]*" defaultValue={search.number} />
        {shop.can('customers:read') && (
          <Field label={t.customer} name="customer" type="search" defaultValue={search.customer} />
        )}
        <SelectField label={t.status} name="status" defaultValue={search.status ?? ''}>
          <option value="">{t.anyStatus}</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t.statuses[s]}
            </option>
          ))}
        </SelectField>
        <SelectField label={strings.common.location} name="location_id" defaultValue={search.location_id ?? ''}>
          <option value="">{strings.common.everyLocation}</option>
          {shop.locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t.register} name="register_id" defaultValue={search.register_id ?? ''}>
          <option value="">{t.anyRegister}</option>
          {registers.data?.data.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </SelectField>
        <Field label={strings.common.from} name="from" type="date" defaultValue={search.from} />
        <Field label={strings.common.to} name="to" type="date" defaultValue={search.to} />
        <div className="actions">
          <button type="submit" className="primary">
            {t.searchButton}
          </button>
        </div>
      </form>
      <ErrorNote error={orders.error ?? customers.error} />
      {noCustomer ? (
        <Empty>{t.noCustomer(search.customer!)}</Empty>
      ) : (
        orders.data &&
        (orders.data.data.length === 0 ? (
          <Empty>{Object.values(search).some(Boolean) ? t.noneFound : t.noneYet}</Empty>
        ) : (
          <>
            <table className="list">
              <caption className="visually-hidden">{t.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.number}</th>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col" className="num">
                    {strings.common.total}
                  </th>
                </tr>
              </thead>
              <tbody>
                {orders.data.data.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <Link to="/orders/$orderId" params={{ orderId: o.id }}>
                        {t.numbered(o.number)}
                      </Link>
                    </td>
                    <td>{shop.fmt.dateTime(o.sold_at ?? o.created_at)}</td>
                    <td>
                      <span className={`status status-${o.status}`}>{t.statuses[o.status]}</span>
                    </td>
                    <td className="num">{shop.fmt.money(o.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={orders.data.pagination.nextCursor} />
          </>
        ))
      )}
    </>
  )
}
