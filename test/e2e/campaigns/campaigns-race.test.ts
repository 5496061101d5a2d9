import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/** Real concurrency on real PostgreSQL: each request runs its own transaction on its own pooled connection. */
describe('campaign limits under concurrency', () => {
  let app: TestApp
  let shop: Shop
  let item: string

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    item = await shop.product(10, { stock: 1000 })
  })
  after(() => app.close())

  const order = (extra: object = {}) =>
    shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: item, quantity: 1 }],
      ...extra,
    })

  async function campaign(body: object) {
    const res = await shop.api.post('/api/v1/campaigns', { status: 'scheduled', ...body })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data
  }

  it('gives a single-use voucher to exactly one of 20 orders at once', async () => {
    const c = await campaign({ name: 'One shot', rules: [{ type: 'fixed_amount', amount: 3 }], requires_voucher: true })
    await shop.api.post(`/api/v1/campaigns/${c.id}/vouchers`, { code: 'ONESHOT' })
    const before = await shop.level(item)
    const results = await Promise.all(Array.from({ length: 20 }, () => order({ voucher_codes: ['ONESHOT'] })))
    const made = results.filter((r) => r.status === 201)
    assert.equal(made.length, 1, JSON.stringify(results.map((r) => [r.status, r.body.code])))
    assert.equal(made[0].body.data.total, 7)
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 409)
      assert.equal(r.body.code, 'VOUCHER_USED_UP')
    }
    // The refused orders left nothing behind: no stock taken, one redemption.
    assert.equal(await shop.level(item), before - 1)
    const stats = await shop.api.get(`/api/v1/campaigns/${c.id}/stats`)
    assert.equal(stats.body.data.redemptions, 1)
    const vouchers = await shop.api.get(`/api/v1/campaigns/${c.id}/vouchers`)
    assert.equal(vouchers.body.data[0].uses, 1)
  })

  it('discounts exactly as many orders as a usage limit allows, whatever runs at once', async () => {
    const c = await campaign({
      name: 'First five',
      rules: [{ type: 'percentage', percent: 50 }],
      usage_limit: 5,
      priority: 100,
    })
    const results = await Promise.all(Array.from({ length: 20 }, () => order()))
    const discounted = results.filter(
      (r) => r.status === 201 && r.body.data.discounts.some((d: { campaign_id: string }) => d.campaign_id === c.id),
    )
    assert.equal(discounted.length, 5)
    for (const r of results.filter((x) => x.status !== 201))
      assert.equal(r.body.code, 'CAMPAIGN_USAGE_LIMIT_REACHED', JSON.stringify(r.body))
    assert.equal((await shop.api.get(`/api/v1/campaigns/${c.id}`)).body.data.usage_count, 5)
    await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'ended' })
  })

  it('gives a use back exactly once when the same order is voided by several requests at once', async () => {
    const c = await campaign({
      name: 'Twice',
      rules: [{ type: 'fixed_amount', amount: 1 }],
      requires_voucher: true,
      usage_limit: 10,
    })
    await shop.api.post(`/api/v1/campaigns/${c.id}/vouchers`, { code: 'TWICE', max_uses: 2 })
    const a = await order({ voucher_codes: ['TWICE'] })
    const b = await order({ voucher_codes: ['TWICE'] })
    assert.equal(a.status, 201)
    assert.equal(b.status, 201)
    const voids = await Promise.all(
      Array.from({ length: 6 }, () => shop.api.patch(`/api/v1/orders/${a.body.data.id}/status`, { status: 'voided' })),
    )
    assert.equal(voids.filter((v) => v.status === 200).length, 1)
    const vouchers = await shop.api.get(`/api/v1/campaigns/${c.id}/vouchers`)
    assert.equal(vouchers.body.data[0].uses, 1)
    assert.equal((await shop.api.get(`/api/v1/campaigns/${c.id}`)).body.data.usage_count, 1)
    const stats = await shop.api.get(`/api/v1/campaigns/${c.id}/stats`)
    assert.equal(stats.body.data.redemptions, 1)
    assert.equal(stats.body.data.orders, 1)
  })
})
