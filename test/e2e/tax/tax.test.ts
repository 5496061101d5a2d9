import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

describe('tax rates', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    other = await openShop(app)
  })
  after(() => app.close())

  const calc = async (s: Shop, lines: unknown[]) => {
    const res = await s.api.post('/api/v1/orders/calculate', { location_id: s.locationId, lines })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body.data
  }

  it('creates, lists and updates rates with exact four-decimal percentages', async () => {
    const created = await shop.api.post('/api/v1/tax-rates', { name: 'City', rate: 8.875 })
    assert.equal(created.status, 201)
    assert.deepEqual(
      [created.body.data.rate, created.body.data.applies_to, created.body.data.inclusive],
      [8.875, 'all', false],
    )
    assert.equal((await shop.api.post('/api/v1/tax-rates', { name: 'Bad', rate: 1.23456 })).status, 422)
    assert.equal(
      (await shop.api.post('/api/v1/tax-rates', { name: 'Bad', rate: 5, applies_to: 'categories' })).body.errors[0]
        .field,
      'category_ids',
    )
    const list = await shop.api.get('/api/v1/tax-rates?limit=1')
    assert.equal(list.body.data.length, 1)
    const patched = await shop.api.patch(`/api/v1/tax-rates/${created.body.data.id}`, { rate: 9, version: 1 })
    assert.equal(patched.status, 200)
    assert.deepEqual([patched.body.data.rate, patched.body.data.version], [9, 2])
    assert.equal(
      (await shop.api.patch(`/api/v1/tax-rates/${created.body.data.id}`, { rate: 10 }, { 'if-match': '1' })).status,
      409,
    )
    assert.equal((await shop.api.patch(`/api/v1/tax-rates/${created.body.data.id}`, { is_active: false })).status, 200)
  })

  it('taxes each line by the rates that apply to its product or category, rounded half-up per line', async () => {
    const food = (await shop.api.post('/api/v1/categories', { name: 'Food' })).body.data.id
    const bread = await shop.product(2.5, { categoryId: food })
    const wine = await shop.product(19.99)
    await shop.api.post('/api/v1/tax-rates', { name: 'Standard', rate: 10 })
    await shop.api.post('/api/v1/tax-rates', {
      name: 'Food surcharge',
      rate: 2.5,
      applies_to: 'categories',
      category_ids: [food],
    })
    await shop.api.post('/api/v1/tax-rates', {
      name: 'Alcohol',
      rate: 5.25,
      applies_to: 'products',
      product_ids: [wine],
    })
    const result = await calc(shop, [
      { product_id: bread, quantity: 3 },
      { product_id: wine, quantity: 1 },
    ])
    // bread: 7.50 x 12.5 % = 0.9375 -> 0.94; wine: 19.99 x 15.25 % = 3.048475 -> 3.05
    assert.deepEqual(
      result.lines.map((l: { tax_rate: string; line_tax: number; line_total: number }) => [
        l.tax_rate,
        l.line_tax,
        l.line_total,
      ]),
      [
        [12.5, 0.94, 8.44],
        [15.25, 3.05, 23.04],
      ],
    )
    assert.deepEqual([result.subtotal, result.tax_total, result.total], [27.49, 3.99, 31.48])
  })

  it('takes tax out of tax-inclusive prices when the org says prices include tax', async () => {
    const ctx = systemContext(app.runtime.database, other.merchant.orgId, [])
    await ctx.db.tx((q) => q.query('UPDATE orgs SET prices_include_tax = true WHERE id = $1', [other.merchant.orgId]))
    await other.api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    const item = await other.product(11.5)
    const result = await calc(other, [{ product_id: item, quantity: 1 }])
    assert.deepEqual([result.prices_include_tax, result.lines[0].line_tax, result.total], [true, 1.5, 11.5])
    assert.equal((await other.api.get('/api/v1/tax-rates')).body.data[0].inclusive, true)
  })

  it('hides rates of another merchant behind a 404', async () => {
    const rate = (await shop.api.post('/api/v1/tax-rates', { name: 'Mine', rate: 1 })).body.data
    assert.equal((await other.api.get(`/api/v1/tax-rates/${rate.id}`)).status, 404)
    assert.equal((await other.api.patch(`/api/v1/tax-rates/${rate.id}`, { rate: 50 })).status, 404)
    assert.ok((await other.api.get('/api/v1/tax-rates')).body.data.every((r: { id: string }) => r.id !== rate.id))
  })
})
