import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loginAs, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, payInFull, type Shop } from '../../support/shop.ts'

describe('items nobody counts, and sold out here (86)', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  const untracked = async (price: number, name = 'Latte') => {
    const res = await shop.api.post('/api/v1/products', {
      name,
      sku: `u-${Math.random().toString(36).slice(2, 10)}`,
      base_price: price,
      track_inventory: false,
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    assert.equal(res.body.data.track_inventory, false)
    return res.body.data.id as string
  }
  const movements = async (productId: string) =>
    (await shop.api.get(`/api/v1/inventory/movements?product_id=${productId}`)).body.data as unknown[]
  const levels = async (productId: string) =>
    (await shop.api.get(`/api/v1/inventory/levels?product_id=${productId}`)).body.data as unknown[]
  const sell = (lines: object[], locationId = shop.locationId) =>
    shop.api.post('/api/v1/orders', { location_id: locationId, lines })

  it('sells an uncounted latte with no stock level, and its void and refund leave no movement either', async () => {
    const latte = await untracked(4.5)
    const counted = await shop.product(3)
    // A counted item with no stock keeps today's rule.
    const refused = await sell([{ product_id: counted, quantity: 1 }])
    assert.equal(refused.status, 409)
    assert.equal(refused.body.code, 'INSUFFICIENT_STOCK')

    const sold = await sell([{ product_id: latte, quantity: 2 }])
    assert.equal(sold.status, 201, JSON.stringify(sold.body))
    assert.equal(sold.body.data.total, 9)
    const voided = await shop.api.patch(`/api/v1/orders/${sold.body.data.id}/status`, { status: 'voided' })
    assert.equal(voided.status, 200, JSON.stringify(voided.body))

    const paid = await sell([{ product_id: latte, quantity: 1 }])
    await payInFull(shop.api, paid.body.data.id, 4.5)
    const refund = await shop.api.post(`/api/v1/orders/${paid.body.data.id}/refund`, { restock: true })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    assert.equal(refund.body.data.status, 'refunded')

    assert.deepEqual(await movements(latte), [])
    assert.deepEqual(await levels(latte), [])
  })

  it('counts a product again once tracked, and an untracked variant of a counted product sells freely', async () => {
    const product = await shop.product(5, { stock: 1 })
    const variant = await shop.api.post(`/api/v1/products/${product}/variants`, {
      name: 'Refill',
      sku: `v-${Math.random().toString(36).slice(2, 10)}`,
      track_inventory: false,
    })
    assert.equal(variant.status, 201, JSON.stringify(variant.body))
    assert.equal(variant.body.data.track_inventory, false)
    const refill = await sell([{ product_id: product, variant_id: variant.body.data.id, quantity: 3 }])
    assert.equal(refill.status, 201, JSON.stringify(refill.body))
    // The product itself is counted: its one unit sells, the second does not.
    assert.equal((await sell([{ product_id: product, quantity: 1 }])).status, 201)
    assert.equal((await sell([{ product_id: product, quantity: 1 }])).body.code, 'INSUFFICIENT_STOCK')
    assert.equal(await shop.level(product), 0)

    const latte = await untracked(4)
    const patched = await shop.api.patch(`/api/v1/products/${latte}`, { track_inventory: true })
    assert.equal(patched.body.data.track_inventory, true)
    assert.equal((await sell([{ product_id: latte, quantity: 1 }])).body.code, 'INSUFFICIENT_STOCK')
  })

  it('draws a bundle down by its counted components only, on sale, void, and a lay-by and its cancellation', async () => {
    const cup = await untracked(0, 'Cup of tea')
    const cake = await shop.product(3, { stock: 5 })
    const box = await shop.product(6)
    const bundle = await shop.api.post('/api/v1/bundles', {
      product_id: box,
      components: [
        { product_id: cup, quantity: 1 },
        { product_id: cake, quantity: 2 },
      ],
    })
    assert.equal(bundle.status, 201, JSON.stringify(bundle.body))

    const sold = await sell([{ product_id: box, quantity: 1 }])
    assert.equal(sold.status, 201, JSON.stringify(sold.body))
    assert.equal(await shop.level(cake), 3)
    await shop.api.patch(`/api/v1/orders/${sold.body.data.id}/status`, { status: 'voided' })
    assert.equal(await shop.level(cake), 5)

    const customer = (await shop.api.post('/api/v1/customers', { email: 'tea@example.test' })).body.data.id
    const layby = await shop.api.post('/api/v1/laybys', {
      customer_id: customer,
      location_id: shop.locationId,
      lines: [
        { product_id: box, quantity: 1 },
        { product_id: cup, quantity: 4 },
      ],
      deposit: { amount: 1, method: 'cash' },
    })
    assert.equal(layby.status, 201, JSON.stringify(layby.body))
    assert.equal(await shop.level(cake), 3)
    const cancelled = await shop.api.post(`/api/v1/laybys/${layby.body.data.id}/cancel`, { reason: 'changed mind' })
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
    assert.equal(await shop.level(cake), 5)
    assert.deepEqual(await movements(cup), [])
  })

  it('refuses an item 86’d at one location and sells it at another, by product or by variant', async () => {
    const latte = await untracked(4.5)
    const other = (await shop.api.post('/api/v1/locations', { name: 'Kiosk' })).body.data.id as string

    const marked = await shop.api.put(`/api/v1/locations/${shop.locationId}/sold-out/${latte}`)
    assert.equal(marked.status, 200, JSON.stringify(marked.body))
    assert.deepEqual(
      { ...marked.body.data, created_at: undefined },
      { location_id: shop.locationId, item_id: latte, product_id: latte, variant_id: null, created_at: undefined },
    )
    // Marking again answers the same mark.
    const again = await shop.api.put(`/api/v1/locations/${shop.locationId}/sold-out/${latte}`)
    assert.equal(again.body.data.created_at, marked.body.data.created_at)
    const listed = await shop.api.get(`/api/v1/locations/${shop.locationId}/sold-out`)
    assert.deepEqual(
      listed.body.data.map((i: { item_id: string }) => i.item_id),
      [latte],
    )
    assert.deepEqual((await shop.api.get(`/api/v1/locations/${other}/sold-out`)).body.data, [])

    const refused = await sell([
      { product_id: await untracked(1, 'Water'), quantity: 1 },
      { product_id: latte, quantity: 1 },
    ])
    assert.equal(refused.status, 409)
    assert.equal(refused.body.code, 'ITEM_SOLD_OUT')
    assert.deepEqual(refused.body.errors, [
      { field: 'lines.1.product_id', message: 'Latte is sold out at this location', code: 'sold_out' },
    ])
    const calculated = await shop.api.post('/api/v1/orders/calculate', {
      location_id: shop.locationId,
      lines: [{ product_id: latte, quantity: 1 }],
    })
    assert.equal(calculated.body.code, 'ITEM_SOLD_OUT')
    assert.equal((await sell([{ product_id: latte, quantity: 1 }], other)).status, 201)

    const cleared = await shop.api.delete(`/api/v1/locations/${shop.locationId}/sold-out/${latte}`)
    assert.equal(cleared.status, 204)
    assert.equal((await sell([{ product_id: latte, quantity: 1 }])).status, 201)

    // One variant sold out: the product and its other variants still sell.
    const oat = await shop.api.post(`/api/v1/products/${latte}/variants`, { name: 'Oat', sku: `oat-${Date.now()}` })
    const soy = await shop.api.post(`/api/v1/products/${latte}/variants`, { name: 'Soy', sku: `soy-${Date.now()}` })
    const markedVariant = await shop.api.put(`/api/v1/locations/${shop.locationId}/sold-out/${oat.body.data.id}`)
    assert.deepEqual(
      [markedVariant.body.data.product_id, markedVariant.body.data.variant_id],
      [latte, oat.body.data.id],
    )
    assert.equal(
      (await sell([{ product_id: latte, variant_id: oat.body.data.id, quantity: 1 }])).body.code,
      'ITEM_SOLD_OUT',
    )
    assert.equal((await sell([{ product_id: latte, variant_id: soy.body.data.id, quantity: 1 }])).status, 201)
  })

  it('answers 404 for an item or location that is not the org’s, and keeps staff out of the 86 list', async () => {
    const latte = await untracked(4.5)
    assert.equal((await shop.api.put(`/api/v1/locations/${shop.locationId}/sold-out/prod_nope`)).status, 404)
    assert.equal((await shop.api.put(`/api/v1/locations/loc_nope/sold-out/${latte}`)).status, 404)
    const stranger = await openShop(app)
    assert.equal((await stranger.api.put(`/api/v1/locations/${stranger.locationId}/sold-out/${latte}`)).status, 404)
    assert.equal((await stranger.api.get(`/api/v1/locations/${shop.locationId}/sold-out`)).status, 404)
    // Staff read the list at the till; marking is for those who keep the stock (inventory:write).
    const staff = await loginAs(app, shop.merchant.orgId, 'staff')
    assert.equal((await staff.api.get(`/api/v1/locations/${shop.locationId}/sold-out`)).status, 200)
    assert.equal((await staff.api.put(`/api/v1/locations/${shop.locationId}/sold-out/${latte}`)).status, 403)
  })
})
