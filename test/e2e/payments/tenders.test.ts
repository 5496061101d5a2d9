import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import type { CreatePaymentInput, Tender } from '../../../src/modules/payments/index.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/**
 * A way to pay made up here, in the test only: a house account the customer settles later (a tab). The payments
 * service has no word of it: it is handed to the services like the built-in tenders, and a sale is paid with it.
 */
function houseAccount() {
  const ledger: { payment: string; amount: bigint; kind: 'charge' | 'credit' }[] = []
  const tender: Tender = {
    method: 'house_account',
    fields: [],
    required: [],
    async take(_ctx, payment) {
      ledger.push({ payment: payment.id, amount: payment.amount, kind: 'charge' })
      return { giftCardId: null }
    },
    async giveBack(_ctx, payment, amount) {
      ledger.push({ payment: payment.id, amount, kind: 'credit' })
    },
  }
  return { tender, ledger }
}

describe('tenders: a way to pay is one entry', () => {
  let app: TestApp
  let shop: Shop
  const house = houseAccount()

  before(async () => {
    app = await startTestApp({}, { tenders: [house.tender] })
    shop = await openShop(app)
  })
  after(() => app.close())

  it('pays a sale with a tender the payments service has never heard of, and refunds to it', async () => {
    const ctx = systemContext(app.runtime.database, shop.merchant.orgId, MERCHANT_SCOPES)
    const methods = await shop.api.get('/api/v1/payments/methods')
    assert.ok(methods.body.data.available.includes('house_account'), JSON.stringify(methods.body))
    // Not enabled until the store chooses it.
    const product = await shop.product(12.5, { stock: 5 })
    const sale = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: product, quantity: 2 }],
    })
    assert.equal(sale.status, 201, JSON.stringify(sale.body))
    const tab = {
      order_id: sale.body.data.id,
      amount: 25,
      method: 'house_account',
    } as unknown as CreatePaymentInput & {
      order_id: string
    }
    await assert.rejects(app.services.payments.createForOrder(ctx, tab), /is not enabled for this org/)
    await app.services.payments.setMethods(ctx, ['card', 'cash', 'house_account'], undefined)

    const payment = await app.services.payments.createForOrder(ctx, tab)
    assert.equal(payment.status, 'captured')
    assert.equal(payment.method, 'house_account')
    assert.deepEqual(house.ledger, [{ payment: payment.id, amount: 2500n, kind: 'charge' }])
    const order = (await shop.api.get(`/api/v1/orders/${sale.body.data.id}`)).body.data
    assert.equal(order.status, 'completed')

    const refund = await shop.api.post(`/api/v1/orders/${order.id}/refund`, { amount: 10 })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    assert.deepEqual(house.ledger.at(-1), { payment: payment.id, amount: 1000n, kind: 'credit' })
    const paid = (await shop.api.get(`/api/v1/payments/${payment.id}`)).body.data
    assert.deepEqual([paid.amount_refunded, paid.status], [10, 'partially_refunded'])
  })

  it("refuses another tender's fields and a method the installation does not have", async () => {
    const ctx = systemContext(app.runtime.database, shop.merchant.orgId, MERCHANT_SCOPES)
    const sale = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: await shop.product(3, { stock: 2 }), quantity: 1 }],
    })
    const withShift = { order_id: sale.body.data.id, amount: 3, method: 'house_account', shift_id: 'shf_x' }
    await assert.rejects(
      app.services.payments.createForOrder(
        ctx,
        withShift as unknown as Parameters<typeof app.services.payments.createForOrder>[1],
      ),
      (error: { errors?: { field: string; message: string }[] }) =>
        error.errors?.[0]?.field === 'shift_id' && error.errors[0].message === 'applies to cash payments only',
    )
    // Over HTTP too: a gift card's code on a cash payment is refused, naming it, and nothing is taken.
    const cash = await shop.api.post('/api/v1/payments', {
      order_id: sale.body.data.id,
      amount: 3,
      method: 'cash',
      gift_card_code: 'GIFT-1234',
    })
    assert.equal(cash.status, 422)
    assert.deepEqual(cash.body.errors, [
      { field: 'gift_card_code', message: 'applies to gift card payments only', code: 'invalid' },
    ])
    assert.equal((await shop.api.get(`/api/v1/orders/${sale.body.data.id}`)).body.data.status, 'open')
    await assert.rejects(
      app.services.payments.setMethods(ctx, ['card', 'barter'], undefined),
      (error: { errors?: { field: string }[] }) => error.errors?.[0]?.field === 'methods.1',
    )
  })
})
