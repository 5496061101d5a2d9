import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/**
 * Orders price from catalog data and tax rates kept in memory under the org's catalog version (when the process
 * may keep them: embedded, or with Redis). Each test sells first, so the data is kept, then changes something and
 * sells again.
 */
describe('orders priced from kept catalog data', () => {
  let app: TestApp
  const sell = async (shop: Shop, productId: string) => {
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: productId, quantity: 1 }],
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data
  }

  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  it('prices the very next order with a changed price, a new markdown and a new tax rate', async () => {
    const shop = await openShop(app)
    const item = await shop.product(10, { stock: 10 })
    assert.equal((await sell(shop, item)).total, 10)

    const current = await shop.api.get(`/api/v1/products/${item}`)
    const patched = await shop.api.patch(
      `/api/v1/products/${item}`,
      { base_price: 12 },
      { 'if-match': String(current.body.data.version) },
    )
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    assert.equal((await sell(shop, item)).total, 12)

    const markdown = await shop.api.post('/api/v1/markdowns', {
      name: 'Two off',
      kind: 'amount',
      value: 2,
      product_ids: [item],
    })
    assert.equal(markdown.status, 201, JSON.stringify(markdown.body))
    assert.equal((await sell(shop, item)).total, 10)

    const rate = await shop.api.post('/api/v1/tax-rates', { name: 'VAT', rate: 10 })
    assert.equal(rate.status, 201, JSON.stringify(rate.body))
    const taxed = await sell(shop, item)
    assert.equal(taxed.tax_total, 1)
    assert.equal(taxed.total, 11)
  })

  it('applies a price list whose window opens between two orders, with no catalog write in between', async () => {
    const shop = await openShop(app)
    const item = await shop.product(5, { stock: 10 })
    // Far enough ahead that the list and the first sale are made before it opens on a busy machine too.
    const opens = new Date(Date.now() + 5_000)
    const list = await shop.api.post('/api/v1/price-lists', {
      name: 'Happy hour',
      starts_at: opens.toISOString(),
      prices: [{ product_id: item, price: 4 }],
    })
    assert.equal(list.status, 201, JSON.stringify(list.body))
    assert.equal((await sell(shop, item)).total, 5)
    await sleep(opens.getTime() - Date.now() + 50)
    assert.equal((await sell(shop, item)).total, 4)
  })
  it('takes a change of the org pricing settings made in SQL from the next catalog write on', async () => {
    const shop = await openShop(app)
    assert.equal((await shop.api.post('/api/v1/tax-rates', { name: 'GST', rate: 10 })).status, 201)
    const item = await shop.product(11, { stock: 5 })
    assert.equal((await sell(shop, item)).total, 12.1)
    const ctx = systemContext(app.runtime.database, shop.merchant.orgId, [])
    await ctx.db.tx((q) => q.query('UPDATE orgs SET prices_include_tax = true WHERE id = $1', [shop.merchant.orgId]))
    await shop.product(1)
    const inclusive = await sell(shop, item)
    assert.deepEqual([inclusive.prices_include_tax, inclusive.tax_total, inclusive.total], [true, 1, 11])
  })
})
