import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'
import { created } from '../../support/two-orgs.ts'

/** Fields with an obvious default take it (issue 23 item 6); each was required, or refused, before. */
describe('friendlier shapes', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  it("a loyalty tier's multiplier is 1 and its benefits none when left out", async () => {
    const program = await created(shop.api, '/api/v1/loyalty/programs', {
      name: 'Club',
      tiers: [
        { name: 'Member', threshold: 0 },
        { name: 'Gold', threshold: 500, multiplier: 2 },
      ],
    })
    assert.deepEqual(
      program.tiers.map((t: { name: string; multiplier: number; benefits: string[] }) => [
        t.name,
        t.multiplier,
        t.benefits,
      ]),
      [
        ['Member', 1, []],
        ['Gold', 2, []],
      ],
    )
  })

  it("tag_customer finds the event's customer by itself on customer and order events", async () => {
    const rule = (event: string) => ({
      name: `Tag on ${event}`,
      enabled: false,
      trigger: { type: 'event', event },
      actions: [{ type: 'tag_customer', tag: 'seen' }],
    })
    const onCustomer = await created(shop.api, '/api/v1/automations', rule('customer.created'))
    assert.equal(onCustomer.actions[0].customer_path, 'id')
    const onOrder = await created(shop.api, '/api/v1/automations', rule('order.completed'))
    assert.equal(onOrder.actions[0].customer_path, 'customer_id')
    const onStock = await shop.api.post('/api/v1/automations', rule('inventory.low_stock'))
    assert.equal(onStock.status, 422)
    assert.equal(onStock.body.errors[0].field, 'actions.0.customer_path')
    assert.equal(onStock.body.errors[0].code, 'required')
  })

  it('a campaign created active runs at once; one that starts later must be scheduled', async () => {
    const campaign = await created(shop.api, '/api/v1/campaigns', {
      name: 'Now',
      rules: [{ type: 'percentage', percent: 10 }],
      status: 'active',
    })
    assert.equal(campaign.status, 'active')
    const later = await shop.api.post('/api/v1/campaigns', {
      name: 'Later',
      rules: [{ type: 'percentage', percent: 10 }],
      status: 'active',
      starts_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
    assert.equal(later.status, 422)
    assert.equal(later.body.errors[0].field, 'starts_at')
    const draft = await created(shop.api, '/api/v1/campaigns', {
      name: 'Quiet',
      rules: [{ type: 'percentage', percent: 5 }],
    })
    assert.equal(draft.status, 'draft', 'an omitted status stays draft')
    await shop.api.patch(`/api/v1/campaigns/${campaign.id}`, { status: 'ended' })
  })

  it('an order takes one voucher_code beside voucher_codes, and a refusal names the field', async () => {
    const product = await shop.product(10, { stock: 5 })
    const campaign = await created(shop.api, '/api/v1/campaigns', {
      name: 'Voucher 20%',
      rules: [{ type: 'percentage', percent: 20 }],
      requires_voucher: true,
      status: 'active',
    })
    const [voucher] = (await shop.api.post(`/api/v1/campaigns/${campaign.id}/vouchers`, { count: 1 })).body.data
    const lines = [{ product_id: product, quantity: 1 }]
    const calc = await shop.api.post('/api/v1/orders/calculate', {
      location_id: shop.locationId,
      lines,
      voucher_code: voucher.code,
    })
    assert.equal(calc.status, 200, JSON.stringify(calc.body))
    assert.equal(calc.body.data.discount_total, 2)
    const unknown = await shop.api.post('/api/v1/orders/calculate', {
      location_id: shop.locationId,
      lines,
      voucher_code: 'NOPE-NOPE',
    })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'voucher_code')
  })
})
