import { reportCsv, unwrap } from '@opentill/client'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { api } from '../api.ts'
import { addDays, localDay, weekStart } from '../format.ts'
import { BarChart } from '../parts/bar-chart.tsx'
import { downloadCsv } from '../parts/download.ts'
import { Field, SelectField } from '../parts/field.tsx'
import { Empty, ErrorNote } from '../parts/notes.tsx'
import { Title } from '../parts/title.tsx'
import { useShop } from '../shop.tsx'
import { strings } from '../strings/index.ts'

const t = strings.reports

/** Every report the API serves; the ones over a period are compared with the period just before. */
const REPORTS = {
  sales: {
    path: '/api/v1/reports/sales',
    dated: true,
    groups: ['day', 'week', 'month', 'hour', 'location', 'product', 'category', 'register'],
  },
  staff: { path: '/api/v1/reports/staff', dated: true, groups: ['user', 'register'] },
  payments: { path: '/api/v1/reports/payments', dated: true, groups: [] },
  refunds: { path: '/api/v1/reports/refunds', dated: true, groups: [] },
  tax: { path: '/api/v1/reports/tax', dated: true, groups: [] },
  discounts: { path: '/api/v1/reports/discounts', dated: true, groups: [] },
  inventory: { path: '/api/v1/reports/inventory', dated: false, groups: [] },
  loyalty: { path: '/api/v1/reports/loyalty', dated: false, groups: [] },
  'gift-cards': { path: '/api/v1/reports/gift-cards', dated: false, groups: [] },
} as const
type ReportName = keyof typeof REPORTS
const isReport = (name: string | undefined): name is ReportName => name !== undefined && name in REPORTS

/** The fields that are money (the rest are counts, names, ids and rates). */
const MONEY = new Set([
  'gross_sales',
  'discounts',
  'net_sales',
  'tax',
  'total',
  'tips',
  'refunded',
  'tips_refunded',
  'total_after_refunds',
  'captured',
  'net',
  'amount',
  'taxable',
  'discount',
  'revenue',
  'cost',
  'value',
  'balance_outstanding',
  'sales',
  'voided',
])
/** What a chart shows of each kind of row: the first of these a row has. */
const CHARTED = ['total_after_refunds', 'total', 'net', 'amount', 'tax', 'value', 'sales']
const HIDDEN = new Set(['product_id', 'category_id', 'campaign_id', 'variant_id'])
/** The figures a report leads with, where it has more than a person takes in at once (all of them otherwise). */
const HEADLINES: Partial<Record<ReportName, string[]>> = {
  sales: ['total_after_refunds', 'net_sales', 'orders', 'quantity', 'refunded', 'tips', 'captured', 'net'],
  staff: ['sales', 'orders', 'refunded', 'voided', 'tips'],
}

export interface ReportsSearch {
  report?: string
  group_by?: string
  from?: string
  to?: string
  location_id?: string
}

type Row = Record<string, string | number | null>
interface Answer {
  rows: Row[]
  totals: Row
}

export function ReportsPage() {
  const shop = useShop()
  const search = useSearch({ from: '/reports' })
  const navigate = useNavigate({ from: '/reports' })
  const name: ReportName = isReport(search.report) ? search.report : 'sales'
  const report = REPORTS[name]
  const today = localDay(new Date(), shop.timeZone)
  const from = search.from ?? weekStart(today)
  const to = search.to ?? today
  const groups: readonly string[] = report.groups
  const groupBy = groups.includes(search.group_by ?? '') ? search.group_by : groups[0]
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1
  const previous = { from: addDays(from, -days), to: addDays(from, -1) }
  const query = (range: { from: string; to: string }) => ({
    ...(report.dated ? range : {}),
    ...(groupBy ? { group_by: groupBy } : {}),
    ...(search.location_id && name !== 'loyalty' && name !== 'gift-cards' ? { location_id: search.location_id } : {}),
  })
  const fetchReport = async (range: { from: string; to: string }) =>
    (
      (await unwrap(api().GET(report.path, { params: { query: query(range) as never } }))) as unknown as {
        data: Answer
      }
    ).data
  const current = useQuery({
    queryKey: ['report', name, query({ from, to })],
    queryFn: () => fetchReport({ from, to }),
  })
  const before = useQuery({
    queryKey: ['report', name, query(previous)],
    queryFn: () => fetchReport(previous),
    enabled: report.dated,
  })
  const csv = useMutation({
    mutationFn: async () => {
      const text = await reportCsv(api(), report.path, query({ from, to }) as Record<string, string>)
      downloadCsv(text, `${name}${groupBy ? `-by-${groupBy}` : ''}${report.dated ? `-${from}-${to}` : ''}.csv`)
    },
  })

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (key: string) => String(form.get(key) ?? '') || undefined
    navigate({
      search: {
        report: value('report'),
        group_by: value('group_by'),
        from: value('from'),
        to: value('to'),
        location_id: value('location_id'),
      },
    })
  }

  const rows = current.data?.rows ?? []
  const columns = rows[0] ? Object.keys(rows[0]).filter((c) => !HIDDEN.has(c) || !('name' in rows[0])) : []
  const charted = CHARTED.find((c) => columns.includes(c))
  const labelOf = (row: Row) =>
    String(row.period ?? row.name ?? row.method ?? row.day ?? row.location_id ?? row.user_id ?? row.register_id ?? '')
  const cell = (column: string, value: Row[string]) => {
    if (value === null) return '—'
    if (MONEY.has(column)) return shop.fmt.money(value)
    if (column === 'location_id') return shop.locations.find((l) => l.id === value)?.name ?? String(value)
    if (column === 'day' || (column === 'period' && groupBy === 'day')) return shop.fmt.day(String(value))
    if (column === 'period' && groupBy === 'week') return t.weekOf(shop.fmt.day(String(value)))
    if (column === 'period' && groupBy === 'month') return shop.fmt.month(String(value))
    return typeof value === 'number' ? shop.fmt.number(value) : String(value)
  }
  return (
    <>
      <Title text={t.title} />
      <form className="filters" onSubmit={submit} aria-label={t.choose} key={JSON.stringify(search)}>
        <SelectField label={t.report} name="report" defaultValue={name}>
          {Object.keys(REPORTS).map((r) => (
            <option key={r} value={r}>
              {t.names[r as ReportName]}
            </option>
          ))}
        </SelectField>
        {groups.length > 0 && (
          <SelectField label={t.groupBy} name="group_by" defaultValue={groupBy}>
            {groups.map((g) => (
              <option key={g} value={g}>
                {t.groups[g as keyof typeof t.groups]}
              </option>
            ))}
          </SelectField>
        )}
        {report.dated && (
          <>
            <Field label={strings.common.from} name="from" type="date" defaultValue={from} />
            <Field label={strings.common.to} name="to" type="date" defaultValue={to} />
          </>
        )}
        <SelectField label={strings.common.location} name="location_id" defaultValue={search.location_id ?? ''}>
          <option value="">{strings.common.everyLocation}</option>
          {shop.locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <div className="actions">
          <button type="submit" className="primary">
            {t.show}
          </button>
        </div>
      </form>
      <ErrorNote error={current.error ?? csv.error} />
      {current.data && (
        <>
          <div className="title">
            <h2>
              {t.names[name]}
              {groupBy && ` ${t.by(t.groups[groupBy as keyof typeof t.groups])}`}
              {report.dated && <small className="muted"> {t.range(shop.fmt.day(from), shop.fmt.day(to))}</small>}
            </h2>
            <button type="button" onClick={() => csv.mutate()} disabled={csv.isPending}>
              {t.csv}
            </button>
          </div>
          <Totals totals={current.data.totals} before={before.data?.totals} headline={HEADLINES[name]} />
          {rows.length === 0 ? (
            <Empty>{t.empty}</Empty>
          ) : (
            <>
              {charted && rows.length > 1 && (
                <BarChart
                  labels={rows.slice(0, 31).map(labelOf)}
                  series={[
                    {
                      label: t.columns[charted as keyof typeof t.columns] ?? charted,
                      values: rows.slice(0, 31).map((r) => Number(r[charted] ?? 0)),
                      colour: '#0a6b3d',
                    },
                  ]}
                  format={(v) => shop.fmt.money(v)}
                />
              )}
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes the focus, so a keyboard can scroll it */}
              <section className="scroll" aria-label={t.table} tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      {columns.map((c) => (
                        <th key={c} scope="col" className={typeof rows[0][c] === 'number' ? 'num' : undefined}>
                          {t.columns[c as keyof typeof t.columns] ?? c}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a report's rows have no id, and are replaced whole
                      <tr key={i}>
                        {columns.map((c) => (
                          <td key={c} className={typeof r[c] === 'number' ? 'num' : undefined}>
                            {cell(c, r[c])}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            </>
          )}
        </>
      )}
    </>
  )
}

/** The report's totals, each beside the previous period's and the change. */
function Totals({ totals, before, headline }: { totals: Row; before: Row | undefined; headline?: string[] }) {
  const shop = useShop()
  const entries = Object.entries(totals).filter(
    ([key, value]) => typeof value === 'number' && (!headline || headline.includes(key)),
  )
  if (entries.length === 0) return null
  return (
    <dl className="figures">
      {entries.map(([key, value]) => {
        const now = Number(value)
        const then = before ? Number(before[key] ?? 0) : undefined
        const show = (v: number) => (MONEY.has(key) ? shop.fmt.money(v) : shop.fmt.number(v))
        return (
          <div key={key}>
            <dt>{t.columns[key as keyof typeof t.columns] ?? key}</dt>
            <dd>
              {show(now)}
              {then !== undefined && (
                <small className="change">
                  {' '}
                  {t.before(show(then))}
                  {then !== 0 && ` (${now >= then ? '▲' : '▼'} ${shop.fmt.percent(Math.abs((now - then) / then))})`}
                </small>
              )}
            </dd>
          </div>
        )
      })}
    </dl>
  )
}
