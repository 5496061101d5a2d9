import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, type Shop } from '../../support/shop.ts'

// The one-statement stock path of order creation (docs/inventory.md "Never below zero"): bundles expanded from the
// quote, several lines of one item netted per level, the ledger's before and after in line order, one crossing event.
describe('orders taking stock in one statement', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  const sell = (lines: { product_id: string; quantity: number }[]) =>
    shop.api.post('/api/v1/orders', { location_id: shop.locationId, lines })

  it('draws a bundle sold in an order down through its components', async () => {
    const cup = await shop.product(3, { stock: 10 })
    const saucer = await shop.product(2, { stock: 4 })
    const set = await shop.product(9)
    const ctx = systemContext(app.runtime.database, shop.merchant.orgId, [])
    await app.services.catalog.bundles.create(ctx, {
      product_id: set,
      components: [
        { product_id: cup, quantity: 2 },
        { product_id: saucer, quantity: 1 },
      ],
    })
    const sold = await sell([{ product_id: set, quantity: 3 }])
    assert.equal(sold.status, 201, JSON.stringify(sold.body))
    assert.deepEqual([await shop.level(cup), await shop.level(saucer), await shop.level(set)], [4, 1, 0])
    assert.deepEqual([await shop.ledgerSum(cup), await shop.ledgerSum(saucer)], [4, 1])

    const short = await sell([{ product_id: set, quantity: 2 }])
    assert.equal(short.status, 409)
    assert.equal(short.body.errors[0].field, 'lines.0')
    assert.deepEqual([await shop.level(cup), await shop.level(saucer)], [4, 1])
  })

  it('records two lines of one item with their own before and after, in line order', async () => {
    const tea = await shop.product(4, { stock: 10 })
    const sold = await sell([
      { product_id: tea, quantity: 2 },
      { product_id: tea, quantity: 3 },
    ])
    assert.equal(sold.status, 201, JSON.stringify(sold.body))
    const moves = await shop.api.get(`/api/v1/inventory/movements?reference_id=${sold.body.data.id}`)
    assert.deepEqual(
      moves.body.data.map((m: { quantity: number; quantity_before: number; quantity_after: number }) => [
        m.quantity,
        m.quantity_before,
        m.quantity_after,
      ]),
      [
        [-2, 10, 8],
        [-3, 8, 5],
      ],
    )
    assert.equal(await shop.level(tea), 5)
  })

  it('emits one low_stock and one stockout when lines of one item cross together', async () => {
    const jam = await shop.product(6, { stock: 4 })
    const point = await shop.api.put('/api/v1/inventory/reorder-points', {
      product_id: jam,
      location_id: shop.locationId,
      reorder_point: 2,
    })
    assert.equal(point.status, 200, JSON.stringify(point.body))
    const sold = await sell([
      { product_id: jam, quantity: 1 },
      { product_id: jam, quantity: 3 },
    ])
    assert.equal(sold.status, 201, JSON.stringify(sold.body))
    const low = (await outbox(app, shop.merchant.orgId, 'inventory.low_stock')).filter((e) => e.product_id === jam)
    const out = (await outbox(app, shop.merchant.orgId, 'inventory.stockout')).filter((e) => e.product_id === jam)
    assert.deepEqual([low.length, out.length, out[0].on_hand], [1, 1, 0])
  })

  it('refuses a sale of an item never stocked at the location with a 409 naming the line, and writes nothing', async () => {
    const fresh = await shop.product(5)
    const stocked = await shop.product(5, { stock: 3 })
    const refused = await sell([
      { product_id: stocked, quantity: 1 },
      { product_id: fresh, quantity: 1 },
    ])
    assert.equal(refused.status, 409)
    assert.equal(refused.body.errors[0].field, 'lines.1')
    assert.equal(refused.body.errors[0].code, 'insufficient_stock')
    assert.equal(await shop.level(stocked), 3)
    assert.equal(await shop.ledgerSum(stocked), 3)
  })

  it('lets an org that allows negative stock sell what it does not have', async () => {
    const lenient = await openShop(app)
    const ctx = systemContext(app.runtime.database, lenient.merchant.orgId, [])
    await ctx.db.tx((q) =>
      q.query('UPDATE orgs SET allow_negative_stock = true WHERE id = $1', [lenient.merchant.orgId]),
    )
    const item = await lenient.product(5, { stock: 1 })
    const sold = await lenient.api.post('/api/v1/orders', {
      location_id: lenient.locationId,
      lines: [{ product_id: item, quantity: 3 }],
    })
    assert.equal(sold.status, 201, JSON.stringify(sold.body))
    assert.deepEqual([await lenient.level(item), await lenient.ledgerSum(item)], [-2, -2])
  })

  it('answers a second merchant who names this shop’s location with a 422 and takes nothing', async () => {
    const item = await shop.product(5, { stock: 2 })
    const other = await openShop(app)
    const foreign = await other.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: item, quantity: 1 }],
    })
    assert.equal(foreign.status, 422)
    assert.equal(foreign.body.errors[0].field, 'location_id')
    assert.equal(await shop.level(item), 2)
  })
})
