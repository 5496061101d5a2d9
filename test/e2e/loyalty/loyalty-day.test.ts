import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, payInFull, type Shop } from '../../support/shop.ts'

/**
 * A whole day of trade for a tiered member, as a merchant runs it: "double points for Gold members at weekends"
 * and "10% off with a voucher", a tier change, a redemption and a refund; every figure reconciles.
 */
describe('a day of trade with a tiered member', () => {
  let app: TestApp
  let s: Shop

  before(async () => {
    app = await startTestApp()
    s = await openShop(app)
  })
  after(() => app.close())

  it('earns, climbs a tier, earns double at the weekend, redeems, refunds, and everything adds up', async () => {
    const today = new Date()
    const isoToday = ((today.getUTCDay() + 6) % 7) + 1
    const coffee = await s.product(4, { stock: 200 })
    const cake = await s.product(6, { stock: 200 })
    await s.api.post('/api/v1/tax-rates', { name: 'VAT', rate: 10 })
    const program = await s.api.post('/api/v1/loyalty/programs', {
      name: 'Club',
      point_value: 0.05,
      tiers: [
        { name: 'Silver', threshold: 0, multiplier: 1, benefits: [] },
        { name: 'Gold', threshold: 30, multiplier: 1.5, benefits: ['priority queue'] },
      ],
    })
    assert.equal(program.status, 201, JSON.stringify(program.body))
    // "Weekend" is today in the location's time zone (UTC) so the test runs any day of the week.
    const doublePoints = await s.api.post('/api/v1/campaigns', {
      name: 'Double points for Gold at weekends',
      rules: [{ type: 'points_multiplier', multiplier: 2 }],
      conditions: { customer_tiers: ['Gold'], days_of_week: [isoToday] },
      status: 'scheduled',
    })
    assert.equal(doublePoints.status, 201, JSON.stringify(doublePoints.body))
    const tenOff = (
      await s.api.post('/api/v1/campaigns', {
        name: '10% off with a voucher',
        rules: [{ type: 'percentage', percent: 10 }],
        requires_voucher: true,
        status: 'scheduled',
      })
    ).body.data
    const voucher = (await s.api.post(`/api/v1/campaigns/${tenOff.id}/vouchers`, { code: 'TENOFF' })).body.data[0]
    const customer = (
      await s.api.post('/api/v1/customers', { first_name: 'Gia', email: `gia-${Date.now()}@example.test` })
    ).body.data.id

    const sell = async (lines: object[], extra: object = {}) => {
      const made = await s.api.post('/api/v1/orders', {
        location_id: s.locationId,
        customer_id: customer,
        lines,
        ...extra,
      })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      await payInFull(s.api, made.body.data.id, made.body.data.total)
      return (await s.api.get(`/api/v1/orders/${made.body.data.id}`)).body.data
    }

    // 1. Silver: 5 cakes, 30.00 net → 30 points; the member reaches Gold.
    const first = await sell([{ product_id: cake, quantity: 5 }])
    assert.equal(first.loyalty_points_earned, 30)
    let member = (await s.api.get(`/api/v1/loyalty/members/${customer}`)).body.data
    assert.equal(member.tier.name, 'Gold')

    // 2. Gold at the weekend with the voucher: 2 coffees and 1 cake, 14.00 less 10 % = 12.60 net;
    //    12.60 × 1.5 (Gold) × 2 (weekend) = 37.8 → 37 points.
    const calc = await s.api.post('/api/v1/orders/calculate', {
      location_id: s.locationId,
      customer_id: customer,
      lines: [
        { product_id: coffee, quantity: 2 },
        { product_id: cake, quantity: 1 },
      ],
      voucher_codes: ['tenoff'],
    })
    assert.deepEqual(calc.body.data.campaigns.applied.map((a: { name: string }) => a.name).sort(), [
      '10% off with a voucher',
      'Double points for Gold at weekends',
    ])
    const second = await sell(
      [
        { product_id: coffee, quantity: 2 },
        { product_id: cake, quantity: 1 },
      ],
      { voucher_codes: ['TENOFF'] },
    )
    assert.equal(second.subtotal, 14)
    assert.equal(second.discount_total, 1.4)
    assert.equal(second.tax_total, 1.26)
    assert.equal(second.total, 13.86)
    assert.equal(second.loyalty_points_earned, 37)
    assert.equal(
      second.discounts.find((d: { rule_type: string }) => d.rule_type === 'points_multiplier').points_multiplier,
      2,
    )

    // 3. The voucher is spent: a third use is refused and nothing changes.
    const again = await s.api.post('/api/v1/orders', {
      location_id: s.locationId,
      customer_id: customer,
      lines: [{ product_id: coffee, quantity: 1 }],
      voucher_codes: ['TENOFF'],
    })
    assert.equal(again.status, 409)

    // 4. Redeem 60 points for 3.00 off an open order.
    const open = await s.api.post('/api/v1/orders', {
      location_id: s.locationId,
      customer_id: customer,
      lines: [{ product_id: coffee, quantity: 3 }],
    })
    const redeemed = await s.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: customer,
      points: 60,
      reward: { type: 'order_discount', order_id: open.body.data.id },
    })
    assert.equal(redeemed.status, 201, JSON.stringify(redeemed.body))
    const third = (await s.api.get(`/api/v1/orders/${open.body.data.id}`)).body.data
    // 12.00 less 3.00 = 9.00 net, 0.90 tax.
    assert.equal(third.total, 9.9)
    await payInFull(s.api, third.id, third.total)
    const thirdDone = (await s.api.get(`/api/v1/orders/${third.id}`)).body.data
    assert.equal(thirdDone.status, 'completed')
    // 9.00 × 1.5 × 2 = 27 points.
    assert.equal(thirdDone.loyalty_points_earned, 27)

    // 5. Refund the second order in full: its 37 points go back.
    const refund = await s.api.post(`/api/v1/orders/${second.id}/refund`, {})
    assert.equal(refund.status, 201, JSON.stringify(refund.body))

    // Reconcile: 30 + 37 − 60 + 27 = 34 points were left, so the refund could take back only 34 of its 37: the
    // balance stops at zero and the movement says 3 were already spent. The ledger adds up movement by movement.
    member = (await s.api.get(`/api/v1/loyalty/members/${customer}?limit=200`)).body.data
    assert.equal(member.balance, 0)
    assert.deepEqual([member.history[0].kind, member.history[0].points], ['refund', -34])
    assert.match(member.history[0].reason, /3 points were already spent/)
    assert.equal(member.lifetime_points, 30 + 37 + 27 - 37)
    assert.equal(member.lifetime_spend, 30 + 9)
    let running = 0
    for (const h of [...member.history].reverse()) {
      running += h.points
      assert.equal(h.balance_after, running)
    }
    assert.equal(running, member.balance)
    // The campaigns' stats add up to the orders: the voucher's one order, its discount and revenue.
    const stats = (await s.api.get(`/api/v1/campaigns/${tenOff.id}/stats`)).body.data
    assert.equal(stats.redemptions, 1)
    assert.equal(stats.discount_given, 1.4)
    assert.equal(stats.revenue, 13.86)
    const vouchers = (await s.api.get(`/api/v1/campaigns/${tenOff.id}/vouchers`)).body.data
    assert.equal(vouchers.find((v: { id: string }) => v.id === voucher.id).uses, 1)
    const doubleStats = (await s.api.get(`/api/v1/campaigns/${doublePoints.body.data.id}/stats`)).body.data
    assert.equal(doubleStats.orders, 2)
    assert.equal(doubleStats.discount_given, 0)
  })
})
