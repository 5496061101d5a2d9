import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, payInFull, type Shop } from '../../support/shop.ts'

describe('orders', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    other = await openShop(app)
  })
  after(() => app.close())

  it('creates an order with exact totals, takes the stock and writes order.created', async () => {
    const a = await shop.product(19.99, { stock: 5 })
    const b = await shop.product(0.35, { stock: 10 })
    await shop.api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [
        { product_id: a, quantity: 2, note: 'gift wrap' },
        { product_id: b, quantity: 3 },
      ],
      discounts: [{ type: 'percentage', value: 10, reason: 'staff' }],
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    const order = res.body.data
    assert.equal(order.status, 'open')
    assert.equal(order.subtotal, 41.03)
    assert.equal(order.discount_total, 4.1)
    // Line discounts are spread by largest remainder; tax is rounded half-up per line.
    assert.deepEqual(
      order.lines.map((l: { line_subtotal: number; line_discount: number; line_tax: number; line_total: number }) => [
        l.line_subtotal,
        l.line_discount,
        l.line_tax,
        l.line_total,
      ]),
      [
        [39.98, 4.0, 5.4, 41.38],
        [1.05, 0.1, 0.14, 1.09],
      ],
    )
    assert.equal(order.tax_total, 5.54)
    assert.equal(order.total, 42.47)
    assert.equal(order.lines[0].note, 'gift wrap')
    assert.equal(order.loyalty_points_earned, 0)
    assert.equal(await shop.level(a), 3)
    assert.equal(await shop.level(b), 7)
    const events = await outbox(app, shop.merchant.orgId, 'order.created')
    assert.deepEqual(events.find((e) => e.id === order.id)?.total, 42.47)
    // The event is written by the order's insert statement: it must hold the order exactly as the API answered it,
    // the columns the database filled in (version, timestamps) included.
    assert.deepEqual(
      events.find((e) => e.id === order.id),
      order,
    )
  })

  it('calculates the same totals without creating anything', async () => {
    const a = await shop.product(10, { stock: 1 })
    const body = {
      location_id: shop.locationId,
      lines: [{ product_id: a, quantity: 1 }],
      discounts: [{ type: 'amount', value: 2.5, reason: 'voucher' }],
    }
    const calc = await shop.api.post('/api/v1/orders/calculate', body)
    assert.equal(calc.status, 200, JSON.stringify(calc.body))
    assert.equal(await shop.level(a), 1)
    const created = await shop.api.post('/api/v1/orders', body)
    for (const k of ['subtotal', 'discount_total', 'tax_total', 'total'])
      assert.equal(calc.body.data[k], created.body.data[k], k)
    assert.equal(calc.body.data.discounts[0].amount, 2.5)
  })

  it('refuses bad input with a 422 naming the field and changes nothing', async () => {
    const a = await shop.product(5, { stock: 2 })
    const cases: [unknown, string][] = [
      [{ location_id: shop.locationId, lines: [{ product_id: 'prod_nope', quantity: 1 }] }, 'lines.0.product_id'],
      [{ location_id: shop.locationId, lines: [{ product_id: a, quantity: 0 }] }, 'lines.0.quantity'],
      [{ location_id: 'loc_nope', lines: [{ product_id: a, quantity: 1 }] }, 'location_id'],
      [
        { location_id: shop.locationId, customer_id: 'cus_nope', lines: [{ product_id: a, quantity: 1 }] },
        'customer_id',
      ],
      [{ location_id: shop.locationId, lines: [{ product_id: a, quantity: 1 }], total: 1 }, 'total'],
      [
        {
          location_id: shop.locationId,
          lines: [{ product_id: a, quantity: 1 }],
          discounts: [{ type: 'amount', value: 1.001, reason: 'x' }],
        },
        'discounts.0.value',
      ],
      [
        {
          location_id: shop.locationId,
          lines: [{ product_id: a, quantity: 1 }],
          discounts: [{ type: 'percentage', value: 101, reason: 'x' }],
        },
        'discounts.0.value',
      ],
    ]
    for (const [body, field] of cases) {
      const res = await shop.api.post('/api/v1/orders', body)
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`)
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      )
    }
    assert.equal(await shop.level(a), 2)
  })

  it('answers 409 with a problem when stock is short', async () => {
    const a = await shop.product(5, { stock: 1 })
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: a, quantity: 2 }],
    })
    assert.equal(res.status, 409)
    assert.equal(res.body.type, 'https://errors.opentill.dev/insufficient-stock')
    assert.equal(await shop.level(a), 1)
  })

  it('lists orders with filters and pagination', async () => {
    const a = await shop.product(1, { stock: 10 })
    const loc2 = (await shop.api.post('/api/v1/locations', { name: 'Second' })).body.data.id
    await shop.api.post('/api/v1/inventory/adjust', {
      product_id: a,
      location_id: loc2,
      quantity: 5,
      reason: 'received',
    })
    const ids: string[] = []
    for (let i = 0; i < 3; i++)
      ids.push(
        (await shop.api.post('/api/v1/orders', { location_id: loc2, lines: [{ product_id: a, quantity: 1 }] })).body
          .data.id,
      )
    const page1 = await shop.api.get(`/api/v1/orders?location_id=${loc2}&limit=2`)
    assert.equal(page1.status, 200)
    assert.deepEqual(
      page1.body.data.map((o: { id: string }) => o.id),
      ids.slice(0, 2),
    )
    assert.equal(page1.body.pagination.hasMore, true)
    const page2 = await shop.api.get(
      `/api/v1/orders?location_id=${loc2}&limit=2&cursor=${page1.body.pagination.nextCursor}`,
    )
    assert.deepEqual(
      page2.body.data.map((o: { id: string }) => o.id),
      ids.slice(2),
    )
    assert.equal(page2.body.pagination.hasMore, false)
    const future = new Date(Date.now() + 3_600_000).toISOString()
    assert.equal((await shop.api.get(`/api/v1/orders?created_from=${encodeURIComponent(future)}`)).body.data.length, 0)
    const open = await shop.api.get(`/api/v1/orders?status=open&location_id=${loc2}`)
    assert.equal(open.body.data.length, 3)
    assert.equal(
      (await shop.api.get('/api/v1/orders?status=completed&limit=200')).body.data.every(
        (o: { status: string }) => o.status === 'completed',
      ),
      true,
    )
    assert.equal((await shop.api.get('/api/v1/orders?cursor=garbage')).status, 400)
  })

  it('completes only a fully paid order and records every move in the history', async () => {
    const a = await shop.product(12.5, { stock: 3 })
    const order = (
      await shop.api.post('/api/v1/orders', { location_id: shop.locationId, lines: [{ product_id: a, quantity: 1 }] })
    ).body.data
    const early = await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'completed' })
    assert.equal(early.status, 409)
    const intent = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: order.total,
      method: 'card',
      payment_method_token: 'pm_card_visa',
    })
    assert.equal(intent.body.data.status, 'requires_capture')
    assert.equal((await shop.api.get(`/api/v1/orders/${order.id}`)).body.data.status, 'open')
    const captured = await shop.api.post(`/api/v1/payments/${intent.body.data.id}/capture`)
    assert.equal(captured.status, 200)
    const done = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(done.status, 'completed')
    assert.equal(done.amount_paid, order.total)
    assert.equal(done.payments.length, 1)
    assert.deepEqual(
      done.status_history.map((h: { from_status: string; to_status: string }) => [h.from_status, h.to_status]),
      [
        [null, 'open'],
        ['open', 'completed'],
      ],
    )
    const again = await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'voided' })
    assert.equal(again.status, 409)
  })

  it('voids an open order: stock comes back, uncaptured intents are voided, a stale version is 409', async () => {
    const a = await shop.product(4, { stock: 3 })
    const order = (
      await shop.api.post('/api/v1/orders', { location_id: shop.locationId, lines: [{ product_id: a, quantity: 2 }] })
    ).body.data
    const intent = (
      await shop.api.post('/api/v1/payments', {
        order_id: order.id,
        amount: order.total,
        method: 'card',
        payment_method_token: 'pm_card_visa',
      })
    ).body.data
    assert.equal(await shop.level(a), 1)
    const stale = await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'voided' }, { 'if-match': '999' })
    assert.equal(stale.status, 409)
    const voided = await shop.api.patch(`/api/v1/orders/${order.id}/status`, {
      status: 'voided',
      reason: 'customer left',
    })
    assert.equal(voided.status, 200, JSON.stringify(voided.body))
    assert.equal(voided.body.data.status, 'voided')
    assert.equal(await shop.level(a), 3)
    assert.equal((await shop.api.get(`/api/v1/payments/${intent.id}`)).body.data.status, 'voided')
    assert.equal((await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'completed' })).status, 409)
    assert.equal((await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'refunded' })).status, 409)
  })

  it('refunds by line and by amount, restocking on request, and never more than was captured', async () => {
    const a = await shop.product(10, { stock: 5 })
    const b = await shop.product(3.33, { stock: 5 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [
          { product_id: a, quantity: 2 },
          { product_id: b, quantity: 3 },
        ],
      })
    ).body.data
    await payInFull(shop.api, order.id, order.total)
    const lineB = order.lines[1]
    const r1 = await shop.api.post(`/api/v1/orders/${order.id}/refund`, {
      lines: [{ line_id: lineB.id, quantity: 1 }],
      restock: true,
      reason: 'damaged',
    })
    assert.equal(r1.status, 201, JSON.stringify(r1.body))
    assert.equal(r1.body.data.status, 'partially_refunded')
    assert.equal(await shop.level(b), 3)
    const r2 = await shop.api.post(`/api/v1/orders/${order.id}/refund`, {
      lines: [{ line_id: lineB.id, quantity: 2 }],
      restock: false,
      reason: 'changed mind',
    })
    assert.equal(r2.status, 201)
    // The three units' shares add up to the line total exactly.
    assert.equal(r2.body.data.lines[1].refunded_amount, lineB.line_total)
    const over = await shop.api.post(`/api/v1/orders/${order.id}/refund`, {
      lines: [{ line_id: lineB.id, quantity: 1 }],
      restock: false,
      reason: 'again',
    })
    assert.equal(over.status, 409)
    const left = Math.round((order.total - r2.body.data.amount_refunded) * 100) / 100
    const tooMuch = await shop.api.post(`/api/v1/orders/${order.id}/refund`, {
      amount: left + 0.01,
      restock: false,
      reason: 'x',
    })
    assert.equal(tooMuch.status, 409)
    const badLine = await shop.api.post(`/api/v1/orders/${order.id}/refund`, {
      lines: [{ line_id: 'oli_nope', quantity: 1 }],
      restock: false,
      reason: 'x',
    })
    assert.equal(badLine.status, 422)
    assert.equal(badLine.body.errors[0].field, 'lines.0.line_id')
    const rest = await shop.api.post(`/api/v1/orders/${order.id}/refund`, { restock: false, reason: 'all the rest' })
    assert.equal(rest.status, 201)
    const final = rest.body.data
    assert.equal(final.status, 'refunded')
    assert.equal(final.amount_refunded, order.total)
    assert.equal(final.refunds.length, 3)
    assert.equal(final.payments[0].status, 'refunded')
    assert.equal(
      (await shop.api.post(`/api/v1/orders/${order.id}/refund`, { amount: 0.01, restock: false, reason: 'x' })).status,
      409,
    )
  })

  it('hides every order of another merchant behind a 404', async () => {
    const a = await shop.product(2, { stock: 2 })
    const order = (
      await shop.api.post('/api/v1/orders', { location_id: shop.locationId, lines: [{ product_id: a, quantity: 1 }] })
    ).body.data
    assert.equal((await other.api.get(`/api/v1/orders/${order.id}`)).status, 404)
    assert.equal((await other.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'voided' })).status, 404)
    assert.equal(
      (await other.api.post(`/api/v1/orders/${order.id}/refund`, { restock: false, reason: 'x' })).status,
      404,
    )
    assert.equal(
      (await other.api.post('/api/v1/payments', { order_id: order.id, amount: 1, method: 'cash' })).status,
      404,
    )
    assert.equal((await other.api.get('/api/v1/orders')).body.data.length, 0)
    const foreign = await other.api.post('/api/v1/orders', {
      location_id: other.locationId,
      lines: [{ product_id: a, quantity: 1 }],
    })
    assert.equal(foreign.status, 422)
  })
})
