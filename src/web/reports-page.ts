import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Report } from '../modules/reports/index.ts'
import { AppError } from '../platform/errors/app-error.ts'
import { toCsv } from '../platform/http/csv.ts'
import { currencyExponent } from '../platform/money/money.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { Html, html, page } from './html.ts'
import { managerGuard, signOutForm } from './manager-guard.ts'
import { SCRIPTED_CSP } from './security.ts'

const REPORTS_SCOPE = 'reports:read'
const TOP_PRODUCTS = 10

// uPlot from node_modules and the page's own script, served from this origin (never a CDN).
const require = createRequire(import.meta.url)
const assets: Record<string, { type: string; body: string }> = {
  'uplot.min.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
  },
  'uplot.min.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  },
  'reports-charts.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('./assets/reports-charts.js', import.meta.url), 'utf8'),
  },
}

type Query = { from?: string; to?: string }
const DAY = /^\d{4}-\d{2}-\d{2}$/
const range = (q: Query) => ({
  ...(q.from && DAY.test(q.from) ? { from: q.from } : {}),
  ...(q.to && DAY.test(q.to) ? { to: q.to } : {}),
})

/** Money columns show the currency's decimals (12.50, not 12.5); the rest as they come. */
const MONEY = new Set(['gross_sales', 'discounts', 'net_sales', 'tax', 'total', 'refunded', 'captured', 'net'])

function table(
  decimals: number,
  caption: string,
  columns: [string, string][],
  rows: Report['rows'],
  totals?: Report['totals'],
): Html {
  if (rows.length === 0) return html`<p>${caption}: nothing in this range.</p>`
  const cell = (key: string, value: string | number | null | undefined): string =>
    MONEY.has(key) && typeof value === 'number' ? value.toFixed(decimals) : String(value ?? '')
  return html`<table><caption>${caption}</caption><thead><tr>${columns.map(([, label]) => html`<th scope="col">${label}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${columns.map(([key]) => html`<td>${cell(key, r[key])}</td>`)}</tr>`)}</tbody>
${totals ? html`<tfoot><tr>${columns.map(([key], i) => html`<th scope="${i === 0 ? 'row' : 'col'}">${i === 0 ? 'Total' : cell(key, totals[key])}</th>`)}</tr></tfoot>` : ''}</table>`
}

/**
 * `/dashboard/reports`: sales by day as a line chart, payments by method and top products as bar charts, their
 * tables, a date range and CSV downloads; the figures are the reports API's, for the signed-in user's org.
 */
export async function reportsPages(
  app: FastifyInstance,
  { runtime, services }: { runtime: Runtime; services: Services },
) {
  const { reports } = services

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = assets[request.params.name]
    if (!asset) return reply.callNotFound()
    return reply.type(asset.type).send(asset.body)
  })

  const guard = managerGuard(runtime.database, services, REPORTS_SCOPE, 'Reports are for the store owner and managers.')
  const reader = (request: FastifyRequest, reply: FastifyReply) => guard(request, reply, false)

  app.get<{ Querystring: Query }>('/dashboard/reports', async (request, reply) => {
    const who = await reader(request, reply)
    if (!who) return reply
    const { ctx, session } = who
    let byDay: Report
    try {
      byDay = await reports.sales(ctx, { ...range(request.query), group_by: 'day' })
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 422) throw error
      return reply.code(303).header('location', '/dashboard/reports').send()
    }
    const window = { from: byDay.from, to: byDay.to }
    const [payments, products] = await Promise.all([
      reports.payments(ctx, window),
      reports.sales(ctx, { ...window, group_by: 'product' }),
    ])
    const top = products.rows.slice(0, TOP_PRODUCTS)
    const data = {
      from: window.from,
      to: window.to,
      currency: byDay.currency,
      decimals: currencyExponent(byDay.currency),
      salesByDay: byDay.rows,
      payments: payments.rows,
      topProducts: top,
    }
    const amount = (v: unknown) => (typeof v === 'number' ? v.toFixed(data.decimals) : '')
    const csv = (report: string, extra = '') =>
      `/dashboard/reports/${report}.csv?from=${window.from}&to=${window.to}${extra}`
    const head = html`<link rel="stylesheet" href="/assets/uplot.min.css"><script src="/assets/uplot.min.js" defer></script><script src="/assets/reports-charts.js" defer></script>`
    reply.header('content-security-policy', SCRIPTED_CSP)
    return reply.type('text/html; charset=utf-8').send(
      page(
        'Reports',
        html`${signOutForm(session)}<h1>Reports</h1>
<form method="get" action="/dashboard/reports" aria-label="Date range"><fieldset><legend>Local days, each store in its own time zone</legend>
<label for="from">From</label><input type="date" id="from" name="from" value="${window.from}" required>
<label for="to">To</label><input type="date" id="to" name="to" value="${window.to}" required>
<button type="submit" class="primary">Show</button></fieldset></form>
<p>${byDay.totals.orders} orders, ${byDay.currency} ${amount(byDay.totals.total)} in sales (${amount(byDay.totals.net_sales)} before tax), ${byDay.currency} ${amount(byDay.totals.refunded)} refunded.</p>
<div id="chart-sales" role="img" aria-label="Sales by day, line chart"></div>
${table(
  data.decimals,
  'Sales by day',
  [
    ['period', 'Day'],
    ['orders', 'Orders'],
    ['gross_sales', 'Gross'],
    ['discounts', 'Discounts'],
    ['tax', 'Tax'],
    ['total', 'Total'],
    ['refunded', 'Refunded'],
  ],
  byDay.rows,
  byDay.totals,
)}
<p><a href="${csv('sales')}" download>Download sales by day (CSV)</a></p>
<div id="chart-payments" role="img" aria-label="Payments by method, bar chart"></div>
${table(
  data.decimals,
  'Payments by method',
  [
    ['method', 'Method'],
    ['payments', 'Payments'],
    ['captured', 'Captured'],
    ['refunded', 'Refunded'],
    ['net', 'Net'],
  ],
  payments.rows,
  payments.totals,
)}
<p><a href="${csv('payments')}" download>Download payments by method (CSV)</a></p>
<div id="chart-products" role="img" aria-label="Top products, bar chart"></div>
${table(
  data.decimals,
  `Top ${TOP_PRODUCTS} products`,
  [
    ['name', 'Product'],
    ['quantity', 'Units'],
    ['total', 'Total'],
  ],
  top,
)}
<p><a href="${csv('products')}" download>Download sales by product (CSV)</a></p>
<script type="application/json" id="report-data">${new Html(JSON.stringify(data).replaceAll('<', '\\u003c'))}</script>`,
        { nav: true, head, wide: true },
      ),
    )
  })

  app.get<{ Params: { report: string }; Querystring: Query }>('/dashboard/reports/:report', async (request, reply) => {
    const who = await reader(request, reply)
    if (!who) return reply
    const q = range(request.query)
    const made: Record<string, () => Promise<Report>> = {
      'sales.csv': () => reports.sales(who.ctx, { ...q, group_by: 'day' }),
      'payments.csv': () => reports.payments(who.ctx, q),
      'products.csv': () => reports.sales(who.ctx, { ...q, group_by: 'product' }),
    }
    const build = made[request.params.report]
    if (!build) return reply.callNotFound()
    const report = await build()
    return reply
      .type('text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${request.params.report.replace('.csv', '')}-${report.from}-${report.to}.csv"`,
      )
      .send(toCsv(report.rows))
  })
}
