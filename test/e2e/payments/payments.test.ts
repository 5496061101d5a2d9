import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, type Shop } from '../../support/shop.ts'

describe('payments', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop
  const postWithoutBody = (url: string) =>
    app.api.inject({ method: 'POST', url, headers: { authorization: `Bearer ${shop.merchant.token}` } })
  const newOrder = async (price: number) => {
    const productId = await shop.product(price, { stock: 5 })
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: productId, quantity: 1 }],
    })
    assert.equal(res.status, 201)
    return res.body.data
  }

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    other = await openShop(app)
  })
  after(() => app.close())

  it('lists the configured payment methods and changes them with a version check', async () => {
    const res = await shop.api.get('/api/v1/payments/methods')
    assert.equal(res.status, 200)
    assert.deepEqual(res.body.data.methods, ['card', 'cash', 'gift_card'])
    assert.equal(res.body.data.processor, 'test')
    const put = await shop.api.put('/api/v1/payments/methods', { methods: ['card', 'cash', 'gift_card', 'external'] })
    assert.equal(put.status, 200)
    assert.deepEqual(put.body.data.methods, ['card', 'cash', 'gift_card', 'external'])
    const stale = await shop.api.put('/api/v1/payments/methods', {
      methods: ['card'],
      version: put.body.data.version - 1,
    })
    assert.equal(stale.status, 409)
    assert.equal((await shop.api.put('/api/v1/payments/methods', { methods: ['bitcoin'] })).status, 422)
    // The other merchant's configuration is untouched.
    assert.deepEqual((await other.api.get('/api/v1/payments/methods')).body.data.methods, ['card', 'cash', 'gift_card'])
    assert.equal(
      (await other.api.post('/api/v1/payments', { order_id: 'ord_x', amount: 1, method: 'external' })).status,
      422,
    )
  })

  it('authorizes, captures and completes the order; a second capture or a void of a captured payment is 409', async () => {
    const order = await newOrder(30)
    const intent = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 30,
      method: 'card',
      payment_method_token: 'pm_card_visa',
    })
    assert.equal(intent.status, 201)
    assert.equal(intent.body.data.status, 'requires_capture')
    assert.ok(intent.body.data.processor_reference)
    // Sent without a body, as curl -X POST sends it (a 422 "body must be object" before).
    const capture = await postWithoutBody(`/api/v1/payments/${intent.body.data.id}/capture`)
    assert.equal(capture.statusCode, 200, capture.body)
    assert.equal(capture.json().data.status, 'captured')
    assert.equal((await shop.api.post(`/api/v1/payments/${intent.body.data.id}/capture`)).status, 409)
    assert.equal((await shop.api.post(`/api/v1/payments/${intent.body.data.id}/void`)).status, 409)
    assert.equal((await shop.api.get(`/api/v1/orders/${order.id}`)).body.data.status, 'completed')
    const captured = await outbox(app, shop.merchant.orgId, 'payment.captured')
    assert.ok(captured.some((p) => p.id === intent.body.data.id))
    const completed = await outbox(app, shop.merchant.orgId, 'order.completed')
    assert.ok(completed.some((o) => o.id === order.id))
  })

  it('records a declined card as failed with payment.failed and leaves the balance open', async () => {
    const order = await newOrder(12)
    const res = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 12,
      method: 'card',
      payment_method_token: 'pm_card_declined',
      capture: true,
    })
    assert.equal(res.status, 201)
    assert.equal(res.body.data.status, 'failed')
    assert.equal(res.body.data.failure_code, 'card_declined')
    const failed = await outbox(app, shop.merchant.orgId, 'payment.failed')
    assert.ok(failed.some((p) => p.id === res.body.data.id))
    const after = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(after.balance_due, 12)
    assert.equal(after.status, 'open')
  })

  it('splits tender across card, cash and gift card, never over the balance', async () => {
    const order = await newOrder(50)
    const card = await shop.api.post('/api/v1/gift-cards', { initial_balance: 15 })
    assert.equal(card.status, 201)
    const voided = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 50,
      method: 'card',
      payment_method_token: 'pm_card_visa',
    })
    // The open intent holds the whole balance until it is voided.
    assert.equal(
      (await shop.api.post('/api/v1/payments', { order_id: order.id, amount: 1, method: 'cash' })).status,
      409,
    )
    const v = await postWithoutBody(`/api/v1/payments/${voided.body.data.id}/void`)
    assert.equal(v.statusCode, 200, v.body)
    assert.equal(v.json().data.status, 'voided')
    const g = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 15,
      method: 'gift_card',
      gift_card_code: card.body.data.code.toLowerCase(),
    })
    assert.equal(g.status, 201, JSON.stringify(g.body))
    assert.equal(g.body.data.status, 'captured')
    assert.equal((await shop.api.get(`/api/v1/gift-cards/${card.body.data.id}`)).body.data.status, 'depleted')
    const cash = await shop.api.post('/api/v1/payments', { order_id: order.id, amount: 20, method: 'cash' })
    assert.equal(cash.status, 201)
    const over = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 15.01,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    assert.equal(over.status, 409)
    const rest = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 15,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    assert.equal(rest.status, 201)
    const done = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(done.status, 'completed')
    assert.equal(done.amount_paid, 50)
    assert.deepEqual(
      done.payments.map((p: { method: string; status: string }) => [p.method, p.status]),
      [
        ['card', 'voided'],
        ['gift_card', 'captured'],
        ['cash', 'captured'],
        ['card', 'captured'],
      ],
    )
    assert.equal(
      (await shop.api.post('/api/v1/payments', { order_id: order.id, amount: 1, method: 'cash' })).status,
      409,
    )
  })

  it('refuses bad payment input with a 422 naming the field', async () => {
    const order = await newOrder(5)
    const cases: [unknown, string][] = [
      [{ order_id: order.id, amount: 5, method: 'card' }, 'payment_method_token'],
      [{ order_id: order.id, amount: 5, method: 'gift_card' }, 'gift_card_code'],
      [{ order_id: order.id, amount: 5, method: 'gift_card', gift_card_code: 'NOPE-NOPE-NOPE-NOPE' }, 'gift_card_code'],
      [{ order_id: order.id, amount: 5.001, method: 'cash' }, 'amount'],
      [{ order_id: order.id, amount: 5, method: 'cheque' }, 'method'],
      [{ order_id: order.id, amount: 5, method: 'cash', tip: 1 }, 'tip'],
      [
        { order_id: order.id, amount: 5, method: 'card', payment_method_token: 'pm_card_visa', shift_id: 'shf_x' },
        'shift_id',
      ],
    ]
    for (const [body, field] of cases) {
      const res = await shop.api.post('/api/v1/payments', body)
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`)
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      )
    }
    assert.equal((await shop.api.get(`/api/v1/orders/${order.id}`)).body.data.payments.length, 0)
  })

  it('hides payments of another merchant behind a 404', async () => {
    const order = await newOrder(3)
    const pay = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 3,
      method: 'card',
      payment_method_token: 'pm_card_visa',
    })
    const id = pay.body.data.id
    assert.equal((await other.api.get(`/api/v1/payments/${id}`)).status, 404)
    assert.equal((await other.api.post(`/api/v1/payments/${id}/capture`)).status, 404)
    assert.equal((await other.api.post(`/api/v1/payments/${id}/void`)).status, 404)
    assert.equal(
      (await other.api.post('/api/v1/payments', { order_id: order.id, amount: 1, method: 'cash' })).status,
      404,
    )
    assert.equal((await shop.api.get(`/api/v1/payments/${id}`)).body.data.status, 'requires_capture')
  })
})
