import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, payInFull, type Shop } from '../../support/shop.ts'

/** Issue 14 items 12 and 13: what a client written against SPEC and docs/decisions.md expects of orders. */
describe('orders as the contract states them', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  async function openOrder(quantity = 1) {
    const productId = await shop.product(10, { stock: 5 })
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: productId, quantity }],
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return { order: res.body.data, productId }
  }

  it('answers 409, not 422, to any status an order cannot move to, also one it cannot go back to', async () => {
    const { order } = await openOrder()
    for (const status of ['open', 'refunded', 'partially_refunded']) {
      const res = await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status })
      assert.equal(res.status, 409, `${status}: ${JSON.stringify(res.body)}`)
    }
    await payInFull(shop.api, order.id, order.total)
    assert.equal((await shop.api.get(`/api/v1/orders/${order.id}`)).body.data.status, 'completed')
    const back = await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'open' })
    assert.equal(back.status, 409)
    assert.equal((await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'shipped' })).status, 422)
    assert.equal((await shop.api.patch('/api/v1/orders/ord_none/status', { status: 'open' })).status, 404)
  })

  it('emits order.voided when an order is voided, with the voided order as its data', async () => {
    const { order } = await openOrder()
    assert.equal((await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'voided' })).status, 200)
    const voided = await outbox(app, shop.merchant.orgId, 'order.voided')
    assert.deepEqual(
      voided.map((o) => [o.id, o.status]),
      [[order.id, 'voided']],
    )
  })

  it('refunds without restock or reason: nothing goes back on the shelf', async () => {
    const { order, productId } = await openOrder(2)
    await payInFull(shop.api, order.id, order.total)
    const before = await shop.level(productId)
    const refund = await shop.api.post(`/api/v1/orders/${order.id}/refund`, { amount: 5 })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    assert.equal(refund.body.data.status, 'partially_refunded')
    assert.equal(await shop.level(productId), before)
  })
})
