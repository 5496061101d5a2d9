import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, payInFull, type Shop } from '../../support/shop.ts'

describe('orders under concurrency', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  it('lets exactly 10 of 50 parallel single-unit orders take a stock of 10, the rest get a clear 409', async () => {
    const productId = await shop.product(2.5, { stock: 10 })
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        shop.api.post('/api/v1/orders', {
          location_id: shop.locationId,
          lines: [{ product_id: productId, quantity: 1 }],
        }),
      ),
    )
    const statuses = results.map((r) => r.status)
    assert.equal(
      statuses.filter((s) => s === 201).length,
      10,
      JSON.stringify(results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body)),
    )
    assert.equal(statuses.filter((s) => s === 409).length, 40)
    for (const r of results.filter((x) => x.status === 409)) {
      assert.equal(r.body.type, 'https://errors.opentill.dev/insufficient-stock')
      assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8')
      assert.ok(r.body.detail.length > 0)
    }
    assert.equal(await shop.level(productId), 0)
    assert.equal(await shop.ledgerSum(productId), 0)
    const orders = await shop.api.get('/api/v1/orders?limit=200')
    assert.equal(
      orders.body.data.filter((o: { lines: { product_id: string }[] }) => o.lines[0].product_id === productId).length,
      10,
    )
  })

  it('creates one order from parallel POSTs that share an Idempotency-Key', async () => {
    const productId = await shop.product(7, { stock: 20 })
    const body = { location_id: shop.locationId, lines: [{ product_id: productId, quantity: 1 }] }
    const headers = { 'idempotency-key': `order-${productId}` }
    const results = await Promise.all(Array.from({ length: 8 }, () => shop.api.post('/api/v1/orders', body, headers)))
    const created = results.filter((r) => r.status === 201)
    assert.ok(created.length >= 1)
    // Every success is the same order (a replay); the others were told the first is still running.
    assert.equal(new Set(created.map((r) => r.body.data.id)).size, 1)
    assert.ok(results.every((r) => r.status === 201 || r.status === 409))
    const replay = await shop.api.post('/api/v1/orders', body, headers)
    assert.equal(replay.status, 201)
    assert.equal(replay.body.data.id, created[0].body.data.id)
    assert.equal(await shop.level(productId), 19)
    const orders = await shop.api.get('/api/v1/orders?limit=200')
    assert.equal(
      orders.body.data.filter((o: { lines: { product_id: string }[] }) => o.lines[0].product_id === productId).length,
      1,
    )
  })

  it('never refunds more than was captured when refunds race refunds', async () => {
    const productId = await shop.product(10, { stock: 5 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: productId, quantity: 3 }],
      })
    ).body.data
    await shop.api.post('/api/v1/payments', { order_id: order.id, amount: 10, method: 'cash' })
    await payInFull(shop.api, order.id, Math.round((order.total - 10) * 100) / 100)
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        shop.api.post(`/api/v1/orders/${order.id}/refund`, { amount: 7, restock: false, reason: 'race' }),
      ),
    )
    const ok = results.filter((r) => r.status === 201).length
    assert.equal(ok, Math.floor((order.total * 100) / 700))
    assert.ok(results.every((r) => r.status === 201 || r.status === 409))
    const final = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(final.amount_refunded, ok * 7)
    const refundedByPayments = final.payments.reduce(
      (a: number, p: { amount_refunded: number; amount: number }) => a + Math.round(p.amount_refunded * 100),
      0,
    )
    assert.equal(refundedByPayments, ok * 700)
    assert.ok(final.payments.every((p: { amount_refunded: number; amount: number }) => p.amount_refunded <= p.amount))
  })

  it('never lets racing line refunds return a unit twice', async () => {
    const productId = await shop.product(4, { stock: 5 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: productId, quantity: 2 }],
      })
    ).body.data
    await payInFull(shop.api, order.id, order.total)
    const line = order.lines[0].id
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        shop.api.post(`/api/v1/orders/${order.id}/refund`, {
          lines: [{ line_id: line, quantity: 1 }],
          restock: true,
          reason: 'race',
        }),
      ),
    )
    assert.equal(results.filter((r) => r.status === 201).length, 2)
    assert.equal(await shop.level(productId), 5)
    const final = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(final.status, 'refunded')
    assert.equal(final.amount_refunded, order.total)
  })

  it('never takes more than the balance when payments race', async () => {
    const productId = await shop.product(10, { stock: 5 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: productId, quantity: 1 }],
      })
    ).body.data
    const share = Math.floor((order.total * 100) / 3) / 100
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        shop.api.post('/api/v1/payments', {
          order_id: order.id,
          amount: share,
          method: 'card',
          payment_method_token: 'pm_card_visa',
          capture: true,
        }),
      ),
    )
    assert.equal(results.filter((r) => r.status === 201).length, 3)
    const final = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.ok(final.amount_captured <= final.total)
  })
})
