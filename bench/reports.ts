// `npx tsx bench/reports.ts`: every report over a year of trade, and the orders list and a customer's history. Seeds BENCH_ORDERS (100,000) completed orders of
// 3 lines each over 365 days at 3 locations (one payment each, one refund per 50 orders) by bulk SQL, builds the
// aggregates with the rebuild command's function (its time is reported), then times each report BENCH_SAMPLES (30)
// times through the reports service (the API's handler minus HTTP) and prints p50 and p95 per report as JSON lines.
// BENCH_ENGINE=server (a fresh database on DATABASE_URL, default postgres://127.0.0.1:5432/test) or embedded.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, withDefaultUser } from '../src/config.ts'
import { encodeCursor } from '../src/platform/http/pagination.ts'
import { systemContext } from '../src/platform/http/system-context.ts'
import { openRuntime } from '../src/platform/runtime.ts'
import { createServices } from '../src/services.ts'
import { sql } from '../test/support/server-database.ts'
import { createBenchDatabase, createBenchOrg } from './lib/database.ts'

const engine = process.env.BENCH_ENGINE ?? 'server'
const orders = Number(process.env.BENCH_ORDERS ?? 100_000)
const samples = Number(process.env.BENCH_SAMPLES ?? 30)
const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!

const dataDir = engine === 'embedded' ? mkdtempSync(join(tmpdir(), 'opentill-bench-reports-')) : undefined
const database = engine === 'server' ? await createBenchDatabase(serverUrl) : undefined
const databaseUrl = database?.url ?? ''
const runtime = await openRuntime(
  loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir ?? '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
  }),
  { migrate: true },
)
const services = createServices(runtime)
try {
  const org = await createBenchOrg(services)
  const ctx = systemContext(runtime.database, org.id, ['catalog:write', 'inventory:write', 'reports:read'])
  const locations = [
    (await services.locations.create(ctx, { name: 'North', timezone: 'Pacific/Auckland' })).id,
    (await services.locations.create(ctx, { name: 'Centre', timezone: 'Europe/Berlin' })).id,
    (await services.locations.create(ctx, { name: 'South', timezone: 'America/Santiago' })).id,
  ]
  const category = await services.catalog.categories.create(ctx, { name: 'Bench category' })
  const products: string[] = []
  for (let i = 0; i < 200; i++) {
    const p = await services.catalog.products.create(ctx, {
      name: `Item ${i}`,
      sku: `BENCH-${i}`,
      base_price: 1 + (i % 40) / 4,
      cost: 0.5 + (i % 40) / 4,
      category_id: i % 2 ? category.id : null,
    })
    products.push(p.id)
    await services.inventory.adjust(ctx, {
      product_id: p.id,
      location_id: locations[i % 3],
      quantity: 1000,
      reason: 'received',
    })
  }
  // Bulk trade straight into the tables as the owner (the API would take hours), then the aggregates at once.
  const seedStarted = Date.now()
  // Row by row the triggers would do the rebuild's work 100,000 times over: off for the bulk load, on after.
  const triggers = [
    ['orders', 'report_order_inserted_completed'],
    ['payments', 'report_payment_captured'],
    ['payment_refunds', 'report_payment_refund_changed'],
  ]
  for (const [table, trigger] of triggers)
    await sql(runtime.ownerUrl, `ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`)
  // 1,000 customers; every tenth order is one of theirs (a customer's history grows with the orders).
  await sql(
    runtime.ownerUrl,
    `INSERT INTO customers (id, org_id, first_name, last_name)
     SELECT 'cus_bench' || lpad(c::text, 4, '0'), $1, 'Bench', 'Customer ' || c FROM generate_series(0, 999) c`,
    [org.id],
  )
  await sql(
    runtime.ownerUrl,
    `INSERT INTO orders (id, org_id, location_id, customer_id, status, currency, prices_include_tax, subtotal,
       discount_total, tax_total, total, captured_total, refunded_total, created_at, updated_at, completed_at)
     SELECT 'ord_bench' || g, $1, ($2::text[])[1 + g % 3],
       CASE WHEN g % 10 = 0 THEN 'cus_bench' || lpad(((g / 10) % 1000)::text, 4, '0') END,
       'completed', 'USD', false, 3000, 100, 435, 3335, 3335,
       CASE WHEN g % 50 = 0 THEN 1000 ELSE 0 END, t, t, t
     FROM generate_series(1, $3::int) g, LATERAL (SELECT now() - make_interval(mins => ((g::bigint * 7919) % (365 * 1440))::int) AS t) x`,
    [org.id, locations, orders],
  )
  await sql(
    runtime.ownerUrl,
    `INSERT INTO order_lines (id, org_id, order_id, position, product_id, quantity, base_price, unit_price, tax_rate_e4,
       line_subtotal, line_discount, line_tax, line_total)
     SELECT 'oli_bench' || g || '_' || n, $1, 'ord_bench' || g, n, ($2::text[])[1 + (g * 3 + n) % 200], 1, 1000, 1000,
       150000, 1000, CASE WHEN n = 0 THEN 100 ELSE 0 END, CASE WHEN n = 0 THEN 135 ELSE 150 END,
       CASE WHEN n = 0 THEN 1035 ELSE 1150 END
     FROM generate_series(1, $3::int) g, generate_series(0, 2) n`,
    [org.id, products, orders],
  )
  await sql(
    runtime.ownerUrl,
    `INSERT INTO payments (id, org_id, order_id, method, amount, currency, status, refunded_amount, created_at,
       updated_at, captured_at)
     SELECT 'pay_bench' || o.g, $1, 'ord_bench' || o.g, CASE WHEN o.g % 3 = 0 THEN 'cash' ELSE 'card' END, 3335, 'USD',
       CASE WHEN o.g % 50 = 0 THEN 'partially_refunded' ELSE 'captured' END, CASE WHEN o.g % 50 = 0 THEN 1000 ELSE 0 END,
       c.completed_at, c.completed_at, c.completed_at
     FROM generate_series(1, $2::int) o(g) JOIN orders c ON c.id = 'ord_bench' || o.g`,
    [org.id, orders],
  )
  await sql(
    runtime.ownerUrl,
    `INSERT INTO refunds (id, org_id, order_id, amount, reason, restock, lines, status, created_at)
     SELECT 'ref_bench' || g, $1, 'ord_bench' || g, 1000, '', false, '[]', 'succeeded', now() - make_interval(days => g % 300)
     FROM generate_series(50, $2::int, 50) g`,
    [org.id, orders],
  )
  await sql(
    runtime.ownerUrl,
    `INSERT INTO payment_refunds (id, org_id, payment_id, refund_id, amount, created_at)
     SELECT 'prf_bench' || g, $1, 'pay_bench' || g, 'ref_bench' || g, 1000, now() - make_interval(days => g % 300)
     FROM generate_series(50, $2::int, 50) g`,
    [org.id, orders],
  )
  for (const [table, trigger] of triggers) await sql(runtime.ownerUrl, `ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`)
  await sql(runtime.ownerUrl, 'ANALYZE')
  const seedS = (Date.now() - seedStarted) / 1000
  // BENCH_REPORTS=false leaves the aggregates unbuilt and times the order lists alone (the rebuild of 1,000,000
  // orders runs for more than 20 minutes on this machine: docs/benchmarks.md "Growth").
  const withReports = process.env.BENCH_REPORTS !== 'false'
  const rebuildStarted = Date.now()
  if (withReports) await services.reports.rebuild(ctx)
  const rebuildS = withReports ? (Date.now() - rebuildStarted) / 1000 : null
  await sql(runtime.ownerUrl, 'ANALYZE')
  process.stdout.write(`${JSON.stringify({ engine, orders, seed_s: seedS, rebuild_s: rebuildS })}\n`)

  const ordersCtx = systemContext(runtime.database, org.id, ['orders:read', 'customers:read'])
  // The cursor of a page halfway through the orders, as a client paging back through a year would send.
  const middle = encodeCursor([`ord_bench${Math.floor(orders / 2)}`])
  const today = new Date().toISOString().slice(0, 10)
  const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10)
  const year = { from: yearAgo, to: today }
  const reportRuns: [string, () => Promise<unknown>][] = [
    ['sales by day', () => services.reports.sales(ctx, { ...year, group_by: 'day' })],
    ['sales by week', () => services.reports.sales(ctx, { ...year, group_by: 'week' })],
    ['sales by month', () => services.reports.sales(ctx, { ...year, group_by: 'month' })],
    ['sales by location', () => services.reports.sales(ctx, { ...year, group_by: 'location' })],
    ['sales by product', () => services.reports.sales(ctx, { ...year, group_by: 'product' })],
    ['sales by category', () => services.reports.sales(ctx, { ...year, group_by: 'category' })],
    ['sales by register', () => services.reports.sales(ctx, { ...year, group_by: 'register' })],
    ['payments by method', () => services.reports.payments(ctx, year)],
    ['refunds', () => services.reports.refunds(ctx, year)],
    ['tax', () => services.reports.tax(ctx, year)],
    ['discounts by campaign', () => services.reports.discounts(ctx, year)],
    ['inventory valuation', () => services.reports.inventory(ctx, {})],
    ['loyalty points outstanding', () => services.reports.loyalty(ctx)],
    ['gift card balances', () => services.reports.giftCards(ctx)],
  ]
  const runs: [string, () => Promise<unknown>][] = [
    ...(withReports ? reportRuns : []),
    ['orders list, first page', () => services.orders.list(ordersCtx, { limit: 50 })],
    ['orders list, a page in the middle', () => services.orders.list(ordersCtx, { limit: 50, cursor: middle })],
    [
      "a customer's orders, first page",
      () => services.orders.listForCustomer(ordersCtx, 'cus_bench0500', { limit: 50 }),
    ],
  ]
  for (const [name, run] of runs) {
    await run()
    const times: number[] = []
    for (let i = 0; i < samples; i++) {
      const t = performance.now()
      await run()
      times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    const pct = (p: number) =>
      Number(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1))
    process.stdout.write(`${JSON.stringify({ engine, report: name, p50_ms: pct(50), p95_ms: pct(95) })}\n`)
  }
} finally {
  await runtime.close()
  await database?.drop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
}
