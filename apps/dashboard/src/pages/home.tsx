import { fromMinor, sum, toMinor, unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { api } from '../api.ts'
import { addDays, localDay, weekStart } from '../format.ts'
import { BarChart } from '../parts/bar-chart.tsx'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useProductNames } from '../product-names.ts'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'
import { FirstSteps } from './first-steps.tsx'

const t = strings.home

interface DayRow {
  period: string
  orders: number
  total: number
  total_after_refunds: number
}

/** A period's figures from report rows of its days: sales after refunds, orders and the average ticket. */
function figuresOf(rows: DayRow[], from: string, to: string, currency: string) {
  const days = rows.filter((r) => r.period >= from && r.period <= to)
  const orders = days.reduce((n, r) => n + r.orders, 0)
  const total = sum(
    days.map((r) => r.total),
    currency,
  )
  return {
    afterRefunds: sum(
      days.map((r) => r.total_after_refunds),
      currency,
    ),
    orders,
    // Rounded half up to the currency's unit.
    average:
      orders === 0 ? 0 : fromMinor((toMinor(total, currency) * 2n + BigInt(orders)) / (2n * BigInt(orders)), currency),
  }
}

function Change({ now, before, versus }: { now: number; before: number; versus: string }) {
  const { fmt } = useShop()
  if (before === 0) return <small className="change">{now === 0 ? t.noneEither(versus) : t.noneBefore(versus)}</small>
  const ratio = (now - before) / before
  return (
    <small className={`change ${ratio < 0 ? 'down' : 'up'}`}>
      {ratio >= 0 ? '▲' : '▼'} {fmt.percent(Math.abs(ratio))} {t.versus(versus)}
    </small>
  )
}

function Period({ title, versus, now, before }: { title: string; versus: string; now: Figures; before: Figures }) {
  const { fmt } = useShop()
  const headingId = useId()
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <dl className="figures">
        <div>
          <dt>{t.afterRefunds}</dt>
          <dd>
            {fmt.money(now.afterRefunds)} <Change now={now.afterRefunds} before={before.afterRefunds} versus={versus} />
          </dd>
        </div>
        <div>
          <dt>{t.orders}</dt>
          <dd>
            {fmt.number(now.orders)} <Change now={now.orders} before={before.orders} versus={versus} />
          </dd>
        </div>
        <div>
          <dt>{t.averageTicket}</dt>
          <dd>
            {fmt.money(now.average)} <Change now={now.average} before={before.average} versus={versus} />
          </dd>
        </div>
      </dl>
    </section>
  )
}
type Figures = ReturnType<typeof figuresOf>

/** Home: today and this week against the periods before, busy hours, best sellers, stock, integrations, shifts. */
export function HomePage() {
  const shop = useShop()
  const today = localDay(new Date(), shop.timeZone)
  const monday = weekStart(today)
  const lastWeekDay = addDays(today, -7)
  const daily = useQuery({
    queryKey: ['report', 'sales', 'day', addDays(monday, -7), today],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/reports/sales', {
          params: { query: { group_by: 'day', from: addDays(monday, -7), to: today } },
        }),
      ),
    enabled: shop.can('reports:read'),
  })
  const hourly = useQuery({
    queryKey: ['report', 'sales', 'hour', today],
    queryFn: async () => {
      const [now, before] = await Promise.all(
        [today, lastWeekDay].map((day) =>
          unwrap(api().GET('/api/v1/reports/sales', { params: { query: { group_by: 'hour', from: day, to: day } } })),
        ),
      )
      return { now: now.data.rows as DayRow[], before: before.data.rows as DayRow[] }
    },
    enabled: shop.can('reports:read'),
  })
  const top = useQuery({
    queryKey: ['report', 'sales', 'product', monday, today],
    queryFn: () =>
      unwrap(
        api().GET('/api/v1/reports/sales', { params: { query: { group_by: 'product', from: monday, to: today } } }),
      ),
    enabled: shop.can('reports:read'),
  })
  const alerts = useQuery({
    queryKey: ['inventory', 'alerts', 'home'],
    queryFn: () => unwrap(api().GET('/api/v1/inventory/alerts', { params: { query: { limit: 5 } } })),
    enabled: shop.can('inventory:read'),
  })
  const alertNames = useProductNames(alerts.data?.data.map((a) => a.product_id) ?? [])
  const endpoints = useQuery({
    queryKey: ['webhooks', 'endpoints', 'home'],
    queryFn: () => unwrap(api().GET('/api/v1/webhooks/endpoints', { params: { query: { limit: 100 } } })),
    enabled: shop.can('webhooks:write'),
  })
  const shifts = useQuery({
    queryKey: ['shifts', 'open'],
    queryFn: () => unwrap(api().GET('/api/v1/shifts', { params: { query: { status: 'open', limit: 100 } } })),
  })
  const registers = useQuery({
    queryKey: ['registers'],
    queryFn: () => unwrap(api().GET('/api/v1/registers', { params: { query: { limit: 100 } } })),
  })

  const rows = (daily.data?.data.rows ?? []) as DayRow[]
  const c = shop.currency
  const failing = (endpoints.data?.data ?? []).filter((e) => e.status !== 'active' || e.failing_since !== null)
  const hours = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`)
  const hourTotals = (list: DayRow[] | undefined) => {
    const byHour = new Map((list ?? []).map((r) => [r.period, r.total]))
    return hours.map((h) => byHour.get(h) ?? 0)
  }
  const registerName = (id: string) => registers.data?.data.find((r) => r.id === id)?.name ?? id

  return (
    <>
      <Title text={t.title}>
        <Link className="button primary" to="/sale">
          {t.newSale}
        </Link>
      </Title>
      <FirstSteps />
      {shop.can('reports:read') && (
        <>
          <ErrorNote error={daily.error} />
          {daily.data && (
            <div className="cards">
              <Period
                title={t.today}
                versus={t.yesterday}
                now={figuresOf(rows, today, today, c)}
                before={figuresOf(rows, addDays(today, -1), addDays(today, -1), c)}
              />
              <Period
                title={t.thisWeek}
                versus={t.lastWeek}
                now={figuresOf(rows, monday, today, c)}
                before={figuresOf(rows, addDays(monday, -7), lastWeekDay, c)}
              />
            </div>
          )}
          <section aria-labelledby="hours-h">
            <h2 id="hours-h">{t.byHour}</h2>
            <ErrorNote error={hourly.error} />
            {hourly.data &&
              (hourly.data.now.length === 0 && hourly.data.before.length === 0 ? (
                <Empty>{t.noSalesToday}</Empty>
              ) : (
                <HourlySales hours={hours} now={hourTotals(hourly.data.now)} before={hourTotals(hourly.data.before)} />
              ))}
          </section>
          <section aria-labelledby="top-h">
            <h2 id="top-h">{t.topItems}</h2>
            <ErrorNote error={top.error} />
            {top.data &&
              (top.data.data.rows.length === 0 ? (
                <Empty>{t.noSalesThisWeek}</Empty>
              ) : (
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{strings.common.item}</th>
                      <th scope="col" className="num">
                        {t.sold}
                      </th>
                      <th scope="col" className="num">
                        {t.sales}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {(top.data.data.rows as { product_id: string; name: string; quantity: number; total: number }[])
                      .slice(0, 5)
                      .map((r) => (
                        <tr key={r.product_id}>
                          <td>
                            <Link to="/items/$productId" params={{ productId: r.product_id }}>
                              {r.name}
                            </Link>
                          </td>
                          <td className="num">{shop.fmt.number(r.quantity)}</td>
                          <td className="num">{shop.fmt.money(r.total)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              ))}
          </section>
        </>
      )}
      {shop.can('inventory:read') && (
        <section aria-labelledby="stock-h">
          <h2 id="stock-h">{t.lowStock}</h2>
          <ErrorNote error={alerts.error} />
          {alerts.data &&
            (alerts.data.data.length === 0 ? (
              <Empty>{t.noLowStock}</Empty>
            ) : (
              <ul className="plain">
                {alerts.data.data.map((a) => (
                  <li key={a.id}>
                    <Link to="/inventory" search={{ product_id: a.product_id }}>
                      {alertNames[a.product_id] ?? a.product_id}
                    </Link>{' '}
                    {t.onHand(a.on_hand, a.reorder_point ?? 0)}{' '}
                    <span className="muted">{shop.locations.find((l) => l.id === a.location_id)?.name}</span>
                  </li>
                ))}
              </ul>
            ))}
        </section>
      )}
      {shop.can('webhooks:write') && endpoints.data && (
        <section aria-labelledby="hooks-h">
          <h2 id="hooks-h">{t.integrations}</h2>
          {failing.length === 0 ? (
            <Empty>{t.integrationsFine}</Empty>
          ) : (
            <ul className="plain">
              {failing.map((e) => (
                <li key={e.id}>
                  <Link to="/webhooks">{e.description || new URL(e.url).host}</Link>{' '}
                  {e.status === 'active'
                    ? t.failing(shop.fmt.dateTime(e.failing_since), e.events_pending + e.events_failed)
                    : t.suspended(e.events_pending + e.events_failed)}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <section aria-labelledby="shifts-h">
        <h2 id="shifts-h">{t.openShifts}</h2>
        <ErrorNote error={shifts.error} />
        {shifts.data &&
          (shifts.data.data.length === 0 ? (
            <Empty>{t.noOpenShifts}</Empty>
          ) : (
            <ul className="plain">
              {shifts.data.data.map((s) => (
                <li key={s.id}>
                  <Link to="/registers">{registerName(s.register_id)}</Link>{' '}
                  {t.openSince(shop.fmt.dateTime(s.opened_at), shop.fmt.money(s.expected_amount))}
                </li>
              ))}
            </ul>
          ))}
      </section>
    </>
  )
}

function HourlySales({ hours, now, before }: { hours: string[]; now: number[]; before: number[] }) {
  const { fmt } = useShop()
  // Only the hours the shop traded in, either day: 24 slots on a phone would be unreadable.
  const open = hours.map((_, i) => i).filter((i) => now[i] !== 0 || before[i] !== 0)
  const first = Math.min(...open)
  const last = Math.max(...open)
  const shown = hours.map((_, i) => i).filter((i) => i >= first && i <= last)
  return (
    <>
      <BarChart
        labels={shown.map((i) => hours[i].slice(0, 2))}
        series={[
          { label: t.today, values: shown.map((i) => now[i]), colour: '#0a6b3d' },
          { label: t.sameDayLastWeek, values: shown.map((i) => before[i]), colour: '#9aa5b1' },
        ]}
        format={(v) => fmt.money(v)}
      />
      <details>
        <summary>{t.hourTable}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t.hour}</th>
              <th scope="col" className="num">
                {t.today}
              </th>
              <th scope="col" className="num">
                {t.sameDayLastWeek}
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((i) => (
              <tr key={hours[i]}>
                <td>{hours[i]}</td>
                <td className="num">{fmt.money(now[i])}</td>
                <td className="num">{fmt.money(before[i])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  )
}
