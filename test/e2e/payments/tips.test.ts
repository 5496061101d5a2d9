import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, payInFull, type Shop } from '../../support/shop.ts'

describe('tips', () => {
  let app: TestApp
  let shop: Shop
  let latte: string

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    // 10.00 plus 15% tax: 11.50 before any tip.
    await shop.api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    latte = await shop.product(10, { stock: 100 })
  })
  after(() => app.close())

  const order = async (tip?: object, customerId?: string) => {
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: latte, quantity: 1 }],
      ...(tip ? { tip } : {}),
      ...(customerId ? { customer_id: customerId } : {}),
    })
    return res
  }
  const tips = (settings: object) => shop.api.patch('/api/v1/settings', { tips: settings })
  /** A card authorized (not captured) for `amount`, `tip` of it a tip. */
  const authorizeCard = (orderId: string, amount: number, tip: number) =>
    shop.api.post('/api/v1/payments', {
      order_id: orderId,
      amount,
      tip,
      method: 'card',
      payment_method_token: 'pm_card_visa',
    })

  it('takes no tip while the store has them turned off', async () => {
    const refused = await order({ amount: 1 })
    assert.equal(refused.status, 422)
    assert.deepEqual(refused.body.errors[0], {
      field: 'tip',
      message: 'is not taken: tips are turned off in the store settings',
      code: 'not_enabled',
    })
  })

  it('adds an amount or a percentage before or after tax, outside the tax and within the cap', async () => {
    await tips({ enabled: true, percentages: [10, 15, 20], base: 'before_tax', max_percent: 25 })
    const byPercent = await order({ percentage: 10 })
    assert.equal(byPercent.status, 201, JSON.stringify(byPercent.body))
    assert.deepEqual(
      [byPercent.body.data.subtotal, byPercent.body.data.tax_total, byPercent.body.data.tip, byPercent.body.data.total],
      [10, 1.5, 1, 12.5],
    )
    await tips({ enabled: true, percentages: [10], base: 'after_tax' })
    const afterTax = await order({ percentage: 10 })
    assert.deepEqual([afterTax.body.data.tip, afterTax.body.data.total], [1.15, 12.65])
    const calculated = await shop.api.post('/api/v1/orders/calculate', {
      location_id: shop.locationId,
      lines: [{ product_id: latte, quantity: 1 }],
      tip: { amount: 2 },
    })
    assert.deepEqual([calculated.body.data.tip, calculated.body.data.total], [2, 13.5])

    // 25% of 11.50 is 2.875: 2.87 is within the cap, 2.88 is not.
    assert.equal((await order({ amount: 2.87 })).status, 201)
    const over = await order({ amount: 2.88 })
    assert.equal(over.status, 422)
    assert.equal(over.body.errors[0].field, 'tip.amount')
    assert.equal(over.body.errors[0].code, 'out_of_range')
    const both = await order({ amount: 1, percentage: 10 })
    assert.equal(both.status, 422)
  })

  it('adjusts a card tip after authorization and before capture, and refuses it after', async () => {
    await tips({ enabled: true, percentages: [10], base: 'before_tax', max_percent: 50 })
    const made = (await order()).body.data
    const paid = await authorizeCard(made.id, 12.5, 1)
    assert.equal(paid.status, 201, JSON.stringify(paid.body))
    assert.deepEqual([paid.body.data.status, paid.body.data.amount, paid.body.data.tip], ['requires_capture', 12.5, 1])
    let current = (await shop.api.get(`/api/v1/orders/${made.id}`)).body.data
    assert.deepEqual([current.tip, current.total, current.tax_total], [1, 12.5, 1.5])

    const adjusted = await shop.api.post(`/api/v1/payments/${paid.body.data.id}/tip`, { tip: 2.3 })
    assert.equal(adjusted.status, 200, JSON.stringify(adjusted.body))
    assert.deepEqual([adjusted.body.data.amount, adjusted.body.data.tip], [13.8, 2.3])
    current = (await shop.api.get(`/api/v1/orders/${made.id}`)).body.data
    assert.deepEqual([current.tip, current.total, current.balance_due], [2.3, 13.8, 13.8])
    // Half of 11.50 is the cap: 5.75 more than the lines.
    const capped = await shop.api.post(`/api/v1/payments/${paid.body.data.id}/tip`, { tip: 5.76 })
    assert.equal(capped.status, 422)
    assert.equal(capped.body.errors[0].field, 'tip')

    const captured = await shop.api.post(`/api/v1/payments/${paid.body.data.id}/capture`)
    assert.equal(captured.status, 200, JSON.stringify(captured.body))
    assert.equal(captured.body.data.amount, 13.8)
    current = (await shop.api.get(`/api/v1/orders/${made.id}`)).body.data
    assert.deepEqual([current.status, current.amount_captured, current.tip], ['completed', 13.8, 2.3])

    const late = await shop.api.post(`/api/v1/payments/${paid.body.data.id}/tip`, { tip: 3 })
    assert.equal(late.status, 409)
    assert.equal(late.body.code, 'TIP_NOT_ADJUSTABLE')
  })

  it('takes the tip off the order when its authorization is voided', async () => {
    const made = (await order()).body.data
    const paid = await authorizeCard(made.id, 12.5, 1)
    assert.equal((await shop.api.post(`/api/v1/payments/${paid.body.data.id}/void`)).status, 200)
    const current = (await shop.api.get(`/api/v1/orders/${made.id}`)).body.data
    assert.deepEqual([current.tip, current.total], [0, 11.5])
  })

  it('keeps the tip on a refund unless the refund includes it', async () => {
    const kept = (await order({ amount: 2 })).body.data
    await payInFull(shop.api, kept.id, 13.5)
    const refund = await shop.api.post(`/api/v1/orders/${kept.id}/refund`, {})
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    assert.deepEqual(
      [refund.body.data.status, refund.body.data.amount_refunded, refund.body.data.tip_refunded],
      ['refunded', 11.5, 0],
    )
    assert.equal(refund.body.data.refunds[0].tip, 0)
    // The tip may still go back later, on its own.
    const tipBack = await shop.api.post(`/api/v1/orders/${kept.id}/refund`, { include_tip: true })
    assert.equal(tipBack.status, 201, JSON.stringify(tipBack.body))
    assert.deepEqual([tipBack.body.data.amount_refunded, tipBack.body.data.tip_refunded], [13.5, 2])
    assert.equal((await shop.api.post(`/api/v1/orders/${kept.id}/refund`, { include_tip: true })).status, 409)

    const returned = (await order({ amount: 2 })).body.data
    await payInFull(shop.api, returned.id, 13.5)
    const all = await shop.api.post(`/api/v1/orders/${returned.id}/refund`, { include_tip: true })
    assert.deepEqual(
      [all.body.data.status, all.body.data.amount_refunded, all.body.data.tip_refunded],
      ['refunded', 13.5, 2],
    )
    // An amount alone never reaches the tip.
    const partly = (await order({ amount: 2 })).body.data
    await payInFull(shop.api, partly.id, 13.5)
    const tooMuch = await shop.api.post(`/api/v1/orders/${partly.id}/refund`, { amount: 12 })
    assert.equal(tooMuch.status, 409)
    assert.equal(tooMuch.body.code, 'REFUND_EXCEEDS_CAPTURED')
  })

  it('gives back no tip that was not paid: an authorization with its tip can still be voided', async () => {
    const made = (await order()).body.data
    const card = await authorizeCard(made.id, 5, 1)
    assert.equal(card.status, 201, JSON.stringify(card.body))
    const cash = await shop.api.post('/api/v1/payments', { order_id: made.id, amount: 7.5, method: 'cash' })
    assert.equal(cash.status, 201, JSON.stringify(cash.body))
    const refund = await shop.api.post(`/api/v1/orders/${made.id}/refund`, { include_tip: true })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    assert.deepEqual([refund.body.data.amount_refunded, refund.body.data.tip_refunded], [6.5, 0])
    assert.equal((await shop.api.post(`/api/v1/payments/${card.body.data.id}/void`)).status, 200)
    const after = (await shop.api.get(`/api/v1/orders/${made.id}`)).body.data
    assert.deepEqual([after.tip, after.total], [0, 11.5])
  })

  it('earns no loyalty points on the tip, and gives change from the cash handed over', async () => {
    const program = await shop.api.post('/api/v1/loyalty/programs', { name: 'Points', points_per_unit: 1 })
    assert.equal(program.status, 201, JSON.stringify(program.body))
    const customer = (await shop.api.post('/api/v1/customers', { email: `tip-${Date.now()}@example.test` })).body.data
    assert.equal((await shop.api.post('/api/v1/loyalty/members', { customer_id: customer.id })).status, 201)
    const made = (await order({ amount: 5 }, customer.id)).body.data
    const cash = await shop.api.post('/api/v1/payments', {
      order_id: made.id,
      amount: 16.5,
      method: 'cash',
      cash_tendered: 20,
    })
    assert.equal(cash.status, 201, JSON.stringify(cash.body))
    assert.deepEqual([cash.body.data.cash_tendered, cash.body.data.change_given], [20, 3.5])
    const done = (await shop.api.get(`/api/v1/orders/${made.id}`)).body.data
    // 10.00 net of tax earns 10 points; neither the tax nor the 5.00 tip earns any.
    assert.deepEqual([done.status, done.loyalty_points_earned], ['completed', 10])
    const short = await shop.api.post('/api/v1/payments', {
      order_id: (await order()).body.data.id,
      amount: 11.5,
      method: 'cash',
      cash_tendered: 10,
    })
    assert.equal(short.status, 422)
    assert.equal(short.body.errors[0].field, 'cash_tendered')
  })

  it('shows tips apart from sales by day, location and member of staff', async () => {
    const other = await openShop(app)
    await other.api.patch('/api/v1/settings', { tips: { enabled: true, percentages: [], base: 'before_tax' } })
    const product = await other.product(4, { stock: 10 })
    const sell = async (tip: number) => {
      const made = await other.api.post('/api/v1/orders', {
        location_id: other.locationId,
        lines: [{ product_id: product, quantity: 1 }],
        tip: { amount: tip },
      })
      await payInFull(other.api, made.body.data.id, made.body.data.total)
      return made.body.data.id as string
    }
    await sell(1)
    const refunded = await sell(0.5)
    await other.api.post(`/api/v1/orders/${refunded}/refund`, { include_tip: true })

    const byDay = (await other.api.get('/api/v1/reports/sales?group_by=day')).body.data
    assert.deepEqual(
      [byDay.totals.total, byDay.totals.tips, byDay.totals.net_sales, byDay.totals.tips_refunded],
      [9.5, 1.5, 8, 0.5],
    )
    const byLocation = (await other.api.get('/api/v1/reports/sales?group_by=location')).body.data
    assert.deepEqual(
      byLocation.rows.map((r: { location_id: string; tips: number }) => [r.location_id, r.tips]),
      [[other.locationId, 1.5]],
    )
    const staff = (await other.api.get('/api/v1/reports/staff')).body.data
    assert.deepEqual(
      staff.rows.map((r: { user_id: string; tips: number }) => [r.user_id, r.tips]),
      [[other.merchant.userId, 1.5]],
    )
  })
})
