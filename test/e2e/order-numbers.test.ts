import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../support/harness.ts'
import { openShop, type Shop } from './orders.fixtures.ts'

describe('order numbers', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  const sell = (productId: string) =>
    shop.api.post('/api/v1/orders', { location_id: shop.locationId, lines: [{ product_id: productId, quantity: 1 }] })

  it('numbers an org’s orders from 1, each org on its own, and finds an order by its number', async () => {
    const product = await shop.product(4.5, { stock: 10 })
    const first = await sell(product)
    assert.equal(first.body.data.number, 1)
    const second = await sell(product)
    assert.equal(second.body.data.number, 2)
    const other = await openShop(app)
    assert.equal(
      (
        await other.api.post('/api/v1/orders', {
          location_id: other.locationId,
          lines: [{ product_id: await other.product(1, { stock: 1 }), quantity: 1 }],
        })
      ).body.data.number,
      1,
    )

    const found = await shop.api.get('/api/v1/orders?number=2')
    assert.deepEqual(
      found.body.data.map((o: { id: string }) => o.id),
      [second.body.data.id],
    )
    assert.deepEqual((await other.api.get('/api/v1/orders?number=2')).body.data, [])
    const events = await shop.api.get('/api/v1/events?type=order.created')
    assert.equal(events.status, 200)
    const created = events.body.data.find((e: { data: { id: string } }) => e.data.id === second.body.data.id)
    assert.equal(created?.data.number, 2)
  })

  it('gives 50 sales at once 50 distinct numbers, the gaps only where a sale rolled back', async () => {
    const product = await shop.product(2, { stock: 45 })
    const answers = await Promise.all(Array.from({ length: 50 }, () => sell(product)))
    const made = answers.filter((a) => a.status === 201).map((a) => a.body.data.number as number)
    const refused = answers.filter((a) => a.status !== 201)
    assert.equal(made.length, 45)
    assert.ok(refused.every((a) => a.body.code === 'INSUFFICIENT_STOCK'))
    assert.equal(new Set(made).size, made.length)
    // Every number was taken once; the five refused sales rolled back after taking theirs.
    const span = Math.max(...made) - Math.min(...made) + 1
    assert.ok(span <= 50, `numbers span ${span}`)
  })
})
