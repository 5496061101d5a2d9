import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, type Shop } from '../../support/shop.ts'

describe('lay-bys', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop
  let customerId: string

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    other = await openShop(app)
    customerId = (await shop.api.post('/api/v1/customers', { email: 'layby@example.test' })).body.data.id
  })
  after(() => app.close())

  const open = async (productId: string, quantity: number, deposit: object) =>
    shop.api.post('/api/v1/laybys', {
      customer_id: customerId,
      location_id: shop.locationId,
      lines: [{ product_id: productId, quantity }],
      deposit,
    })

  it('opens with a deposit that reserves the stock, takes payments and completes into an order', async () => {
    const productId = await shop.product(100, { stock: 3 })
    const created = await open(productId, 2, { amount: 50, method: 'cash' })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    const layby = created.body.data
    assert.deepEqual([layby.status, layby.total, layby.amount_paid, layby.balance_due], ['open', 200, 50, 150])
    assert.equal(layby.payments.length, 1)
    assert.equal(await shop.level(productId), 1)
    assert.ok((await outbox(app, shop.merchant.orgId, 'layby.created')).some((l) => l.id === layby.id))

    assert.equal((await shop.api.post(`/api/v1/laybys/${layby.id}/complete`)).status, 409)
    const over = await shop.api.post(`/api/v1/laybys/${layby.id}/payments`, { amount: 150.01, method: 'cash' })
    assert.equal(over.status, 409)
    const paid = await shop.api.post(`/api/v1/laybys/${layby.id}/payments`, {
      amount: 100,
      method: 'card',
      payment_method_token: 'pm_card_visa',
    })
    assert.equal(paid.status, 201)
    assert.equal(paid.body.data.payment.status, 'captured')
    assert.equal(paid.body.data.layby.balance_due, 50)
    await shop.api.post(`/api/v1/laybys/${layby.id}/payments`, { amount: 50, method: 'cash' })
    assert.equal(
      (await outbox(app, shop.merchant.orgId, 'layby.payment_received')).filter((l) => l.id === layby.id).length,
      2,
    )

    const done = await shop.api.post(`/api/v1/laybys/${layby.id}/complete`, { note: 'collected by Ana' })
    assert.equal(done.status, 200)
    assert.equal(done.body.data.status, 'completed')
    assert.equal(await shop.level(productId), 1)
    const order = (await shop.api.get(`/api/v1/orders/${done.body.data.order_id}`)).body.data
    assert.deepEqual(
      [order.status, order.total, order.amount_paid, order.layby_id, order.payments.length],
      ['completed', 200, 200, layby.id, 3],
    )
    assert.ok((await outbox(app, shop.merchant.orgId, 'layby.completed')).some((l) => l.id === layby.id))
    assert.equal((await shop.api.post(`/api/v1/laybys/${layby.id}/cancel`)).status, 409)
    assert.equal(
      (await shop.api.post(`/api/v1/laybys/${layby.id}/payments`, { amount: 1, method: 'cash' })).status,
      409,
    )
  })

  it('cancels: refunds the deposit and payments and releases the stock', async () => {
    const productId = await shop.product(40, { stock: 2 })
    const layby = (await open(productId, 2, { amount: 20, method: 'card', payment_method_token: 'pm_card_visa' })).body
      .data
    await shop.api.post(`/api/v1/laybys/${layby.id}/payments`, { amount: 10, method: 'cash' })
    assert.equal(await shop.level(productId), 0)
    const cancelled = await shop.api.post(`/api/v1/laybys/${layby.id}/cancel`, { reason: 'changed mind' })
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
    assert.equal(cancelled.body.data.status, 'cancelled')
    assert.equal(await shop.level(productId), 2)
    assert.equal(await shop.ledgerSum(productId), 2)
    const after = (await shop.api.get(`/api/v1/laybys/${layby.id}`)).body.data
    assert.deepEqual(
      after.payments.map((p: { status: string; amount_refunded: number }) => [p.status, p.amount_refunded]),
      [
        ['refunded', 20],
        ['refunded', 10],
      ],
    )
    const event = (await outbox(app, shop.merchant.orgId, 'layby.cancelled')).find((l) => l.id === layby.id)
    assert.equal(event.amount_refunded, 30)
  })

  it('leaves nothing behind when the deposit is declined or the stock is short', async () => {
    const productId = await shop.product(10, { stock: 1 })
    const declined = await open(productId, 1, { amount: 5, method: 'card', payment_method_token: 'pm_card_declined' })
    assert.equal(declined.status, 409)
    const short = await open(productId, 2, { amount: 5, method: 'cash' })
    assert.equal(short.status, 409)
    assert.equal(await shop.level(productId), 1)
    const tooBig = await open(productId, 1, { amount: 10.01, method: 'cash' })
    assert.equal(tooBig.status, 409)
    const noCustomer = await shop.api.post('/api/v1/laybys', {
      customer_id: 'cus_nope',
      location_id: shop.locationId,
      lines: [{ product_id: productId, quantity: 1 }],
      deposit: { amount: 1, method: 'cash' },
    })
    assert.equal(noCustomer.status, 422)
    assert.equal(noCustomer.body.errors[0].field, 'customer_id')
    assert.equal(await shop.level(productId), 1)
  })

  it('lists lay-bys with filters and pagination', async () => {
    const list = await shop.api.get('/api/v1/laybys?limit=1')
    assert.equal(list.status, 200)
    assert.equal(list.body.data.length, 1)
    assert.equal(list.body.pagination.hasMore, true)
    const cancelled = await shop.api.get('/api/v1/laybys?status=cancelled')
    assert.ok(
      cancelled.body.data.length >= 1 && cancelled.body.data.every((l: { status: string }) => l.status === 'cancelled'),
    )
    assert.equal((await shop.api.get(`/api/v1/laybys?customer_id=${customerId}&limit=200`)).body.data.length, 2)
  })

  it('hides lay-bys of another merchant behind a 404', async () => {
    const productId = await shop.product(10, { stock: 1 })
    const layby = (await open(productId, 1, { amount: 5, method: 'cash' })).body.data
    assert.equal((await other.api.get(`/api/v1/laybys/${layby.id}`)).status, 404)
    assert.equal(
      (await other.api.post(`/api/v1/laybys/${layby.id}/payments`, { amount: 1, method: 'cash' })).status,
      404,
    )
    assert.equal((await other.api.post(`/api/v1/laybys/${layby.id}/complete`)).status, 404)
    assert.equal((await other.api.post(`/api/v1/laybys/${layby.id}/cancel`)).status, 404)
    assert.equal((await other.api.get('/api/v1/laybys')).body.data.length, 0)
    assert.equal((await shop.api.get(`/api/v1/laybys/${layby.id}`)).body.data.status, 'open')
  })
})
