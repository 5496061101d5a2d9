import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

const cents = (n: number) => Math.round(n * 100)

describe('a day of trade at one till', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  it('opens a shift, sells with split tender, refunds, runs a lay-by and a gift card, closes with no variance, and every figure adds up', async () => {
    const { api, locationId } = shop
    await api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    const coffee = await shop.product(4.5, { stock: 40 })
    const mug = await shop.product(12.99, { stock: 10 })
    const register = (await api.post('/api/v1/registers', { location_id: locationId, name: 'Till 1' })).body.data
    const shift = (await api.post(`/api/v1/registers/${register.id}/shifts/open`, { opening_float: 100 })).body.data
    const customer = (await api.post('/api/v1/customers', { first_name: 'Ana', email: 'ana@example.test' })).body.data

    // Sale 1: split between cash (on the shift) and a card.
    const sale1 = (
      await api.post('/api/v1/orders', {
        location_id: locationId,
        customer_id: customer.id,
        lines: [
          { product_id: coffee, quantity: 3 },
          { product_id: mug, quantity: 1 },
        ],
      })
    ).body.data
    assert.equal(sale1.total, 30.47) // taxed per line, half-up: 13.50 + 2.03 and 12.99 + 1.95
    const cash1 = await api.post('/api/v1/payments', {
      order_id: sale1.id,
      amount: 10,
      method: 'cash',
      shift_id: shift.id,
    })
    assert.equal(cash1.status, 201, JSON.stringify(cash1.body))
    await api.post('/api/v1/payments', {
      order_id: sale1.id,
      amount: 20.47,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    assert.equal((await api.get(`/api/v1/orders/${sale1.id}`)).body.data.status, 'completed')

    // Sale 2: a gift card sold earlier pays part, cash the rest; then one coffee comes back (refund in cash, restocked).
    const gift = (await api.post('/api/v1/gift-cards', { initial_balance: 5 })).body.data
    const sale2 = (
      await api.post('/api/v1/orders', { location_id: locationId, lines: [{ product_id: coffee, quantity: 2 }] })
    ).body.data
    await api.post('/api/v1/payments', {
      order_id: sale2.id,
      amount: 5,
      method: 'gift_card',
      gift_card_code: gift.code,
    })
    await api.post('/api/v1/payments', {
      order_id: sale2.id,
      amount: Math.round((sale2.total - 5) * 100) / 100,
      method: 'cash',
      shift_id: shift.id,
    })
    const refund = await api.post(`/api/v1/orders/${sale2.id}/refund`, {
      lines: [{ line_id: sale2.lines[0].id, quantity: 1 }],
      restock: true,
      reason: 'spilled',
      shift_id: shift.id,
    })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    assert.equal(refund.body.data.status, 'partially_refunded')

    // Sale 3: a declined card, then cash; then a lay-by with a cash deposit.
    const sale3 = (
      await api.post('/api/v1/orders', { location_id: locationId, lines: [{ product_id: mug, quantity: 1 }] })
    ).body.data
    const declined = await api.post('/api/v1/payments', {
      order_id: sale3.id,
      amount: sale3.total,
      method: 'card',
      payment_method_token: 'pm_card_declined',
    })
    assert.equal(declined.body.data.status, 'failed')
    await api.post('/api/v1/payments', { order_id: sale3.id, amount: sale3.total, method: 'cash', shift_id: shift.id })
    const layby = await api.post('/api/v1/laybys', {
      customer_id: customer.id,
      location_id: locationId,
      lines: [{ product_id: mug, quantity: 2 }],
      deposit: { amount: 10, method: 'cash', shift_id: shift.id },
    })
    assert.equal(layby.status, 201, JSON.stringify(layby.body))

    // The day's figures.
    const orders = (await api.get(`/api/v1/orders?location_id=${locationId}&limit=200`)).body.data
    const full = await Promise.all(
      orders.map(async (o: { id: string }) => (await api.get(`/api/v1/orders/${o.id}`)).body.data),
    )
    let captured = 0
    let refunded = 0
    let cashIn = 0
    let cashOut = 0
    for (const o of full) {
      assert.equal(cents(o.subtotal) - cents(o.discount_total) + cents(o.tax_total), cents(o.total))
      assert.equal(
        o.lines.reduce((a: number, l: { line_total: number }) => a + cents(l.line_total), 0),
        cents(o.total),
      )
      const paid = o.payments.filter((p: { status: string; amount: number }) =>
        ['captured', 'partially_refunded', 'refunded'].includes(p.status),
      )
      assert.equal(
        paid.reduce((a: number, p: { amount: number }) => a + cents(p.amount), 0),
        cents(o.amount_captured),
      )
      assert.equal(
        paid.reduce((a: number, p: { amount_refunded: number }) => a + cents(p.amount_refunded), 0),
        cents(o.amount_refunded),
      )
      assert.equal(
        o.refunds.reduce((a: number, r: { amount: number }) => a + cents(r.amount), 0),
        cents(o.amount_refunded),
      )
      if (o.status === 'completed' || o.status === 'partially_refunded')
        assert.equal(cents(o.amount_captured), cents(o.total))
      captured += cents(o.amount_captured)
      refunded += cents(o.amount_refunded)
      for (const p of paid.filter((x: { method: string }) => x.method === 'cash')) {
        cashIn += cents(p.amount)
        cashOut += cents(p.amount_refunded)
      }
    }
    assert.equal(captured, cents(sale1.total) + cents(sale2.total) + cents(sale3.total))
    assert.equal(refunded, cents(refund.body.data.amount_refunded))
    cashIn += 1000 // the lay-by deposit

    const running = (await api.get(`/api/v1/shifts/${shift.id}`)).body.data
    assert.equal(cents(running.cash_sales), cashIn)
    assert.equal(cents(running.cash_refunds), cashOut)
    const expected = 10000 + cashIn - cashOut
    assert.equal(cents(running.expected_amount), expected)
    const closed = await api.post(`/api/v1/shifts/${shift.id}/close`, { counted_amount: expected / 100 })
    assert.equal(closed.status, 200)
    assert.equal(closed.body.data.variance, 0)

    // Stock: 40 coffee - 3 - 2 + 1 back; 10 mugs - 1 - 1 - 2 reserved; the ledger sums to each level.
    assert.equal(await shop.level(coffee), 36)
    assert.equal(await shop.level(mug), 6)
    assert.equal(await shop.ledgerSum(coffee), 36)
    assert.equal(await shop.ledgerSum(mug), 6)
    assert.equal((await api.get(`/api/v1/gift-cards/${gift.id}`)).body.data.balance, 0)
  })
})
