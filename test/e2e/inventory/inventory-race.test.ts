import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

describe('inventory under concurrency', () => {
  let app: TestApp
  let merchant: Merchant
  let api: ReturnType<typeof clientFor>
  let shop: string
  let backroom: string
  let sku = 0

  const newProduct = async () => {
    const res = await api.post('/api/v1/products', { name: 'Widget', sku: `race-${++sku}`, base_price: 5 })
    assert.equal(res.status, 201)
    return res.body.data.id as string
  }
  const stock = async (productId: string, locationId: string, quantity: number) => {
    const res = await api.post('/api/v1/inventory/adjust', {
      product_id: productId,
      location_id: locationId,
      quantity,
      reason: 'received',
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
  }
  const level = async (productId: string, locationId: string) => {
    const res = await api.get(`/api/v1/inventory/levels?product_id=${productId}&location_id=${locationId}`)
    return res.body.data[0]?.on_hand as number
  }
  const ledgerSum = async (productId: string, locationId: string) => {
    let sum = 0
    let cursor: string | null = null
    do {
      const res = await api.get(
        `/api/v1/inventory/movements?product_id=${productId}&location_id=${locationId}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      )
      for (const m of res.body.data) {
        assert.equal(m.quantity_after - m.quantity_before, m.quantity)
        sum += m.quantity
      }
      cursor = res.body.pagination.nextCursor
    } while (cursor)
    return sum
  }

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    api = clientFor(app.api, merchant.token)
    shop = (await api.post('/api/v1/locations', { name: 'Shop' })).body.data.id
    backroom = (await api.post('/api/v1/locations', { name: 'Backroom' })).body.data.id
  })
  after(() => app.close())

  it('lets exactly 10 of 50 parallel single-unit sales through applyChanges take a stock of 10', async () => {
    const productId = await newProduct()
    await stock(productId, shop, 10)
    const attempts = Array.from({ length: 50 }, (_, i) => {
      const ctx = systemContext(app.runtime.database, merchant.orgId, [])
      return ctx.db.tx(() =>
        app.services.inventory.applyChanges(ctx, [
          {
            productId,
            locationId: shop,
            quantity: -1,
            reason: 'sale',
            reference: { type: 'order', id: `ord_${i}` },
            field: 'lines.0',
          },
        ]),
      )
    })
    const results = await Promise.allSettled(attempts)
    const ok = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    assert.equal(ok.length, 10)
    assert.equal(refused.length, 40)
    for (const r of refused) {
      assert.equal(r.reason.status, 409)
      assert.match(r.reason.message, /insufficient stock for race-\d+ at Shop/)
      assert.deepEqual(
        r.reason.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
        [['lines.0', 'insufficient_stock']],
      )
    }
    assert.equal(await level(productId, shop), 0)
    assert.equal(await ledgerSum(productId, shop), 0)
    const sales = await api.get(`/api/v1/inventory/movements?product_id=${productId}&reason=sale&limit=200`)
    assert.equal(sales.body.data.length, 10)
  })

  it('lets exactly 10 of 50 parallel POST /inventory/adjust of -1 through, the rest get a 409 problem', async () => {
    const productId = await newProduct()
    await stock(productId, shop, 10)
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.post('/api/v1/inventory/adjust', {
          product_id: productId,
          location_id: shop,
          quantity: -1,
          reason: 'damaged',
        }),
      ),
    )
    const statuses = responses.map((r) => r.status)
    assert.equal(statuses.filter((s) => s === 201).length, 10)
    assert.equal(statuses.filter((s) => s === 409).length, 40)
    const refusal = responses.find((r) => r.status === 409)!
    assert.equal(refusal.body.type, 'https://errors.opentill.dev/insufficient-stock')
    assert.equal(refusal.body.errors[0].field, 'quantity')
    assert.equal(refusal.body.errors[0].code, 'insufficient_stock')
    assert.equal(await level(productId, shop), 0)
    assert.equal(await ledgerSum(productId, shop), 0)
  })

  it('never oversells when transfers race sales on the same stock', async () => {
    const productId = await newProduct()
    await stock(productId, shop, 10)
    const transfers = Array.from({ length: 10 }, () =>
      api.post('/api/v1/inventory/transfer', {
        from_location_id: shop,
        to_location_id: backroom,
        lines: [{ product_id: productId, quantity: 2 }],
      }),
    )
    const sales = Array.from({ length: 10 }, () =>
      api.post('/api/v1/inventory/adjust', { product_id: productId, location_id: shop, quantity: -1, reason: 'theft' }),
    )
    const transferResults = await Promise.all(transfers)
    const saleResults = await Promise.all(sales)
    for (const r of [...transferResults, ...saleResults])
      assert.ok(r.status === 201 || r.status === 409, `unexpected ${r.status}`)
    const moved = transferResults.filter((r) => r.status === 201).length * 2
    const sold = saleResults.filter((r) => r.status === 201).length
    const shopLevel = await level(productId, shop)
    const backroomLevel = (await level(productId, backroom)) ?? 0
    assert.ok(shopLevel >= 0)
    assert.equal(shopLevel, 10 - moved - sold)
    assert.equal(backroomLevel, moved)
    // 10 units and chunks of 1 or 2: the shop cannot be left with stock while every taker was refused.
    assert.ok(shopLevel <= 1)
    assert.equal(await ledgerSum(productId, shop), shopLevel)
    assert.equal(await ledgerSum(productId, backroom), backroomLevel)
  })

  it('rolls back a multi-line change entirely when one line is short, whatever order the lines come in', async () => {
    const a = await newProduct()
    const b = await newProduct()
    await stock(a, shop, 5)
    await stock(b, shop, 1)
    // Opposite line orders in parallel would deadlock without sorted locking; one must win, one must be refused.
    const ctx = () => systemContext(app.runtime.database, merchant.orgId, [])
    const order1 = (c = ctx()) =>
      c.db.tx(() =>
        app.services.inventory.applyChanges(c, [
          { productId: a, locationId: shop, quantity: -1, reason: 'sale', field: 'lines.0' },
          { productId: b, locationId: shop, quantity: -1, reason: 'sale', field: 'lines.1' },
        ]),
      )
    const order2 = (c = ctx()) =>
      c.db.tx(() =>
        app.services.inventory.applyChanges(c, [
          { productId: b, locationId: shop, quantity: -1, reason: 'sale', field: 'lines.0' },
          { productId: a, locationId: shop, quantity: -1, reason: 'sale', field: 'lines.1' },
        ]),
      )
    const results = await Promise.allSettled([order1(), order2()])
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'])
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!
    assert.equal(refused.reason.status, 409)
    assert.equal(await level(a, shop), 4)
    assert.equal(await level(b, shop), 0)
    assert.equal(await ledgerSum(a, shop), 4)
  })
})
