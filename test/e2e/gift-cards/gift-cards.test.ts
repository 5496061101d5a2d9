import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../support/harness.ts'
import { outbox, payInFull, type Shop } from '../../support/shop.ts'
import { appWithTwoShops } from '../../support/two-orgs.ts'

describe('gift cards', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop

  before(async () => {
    ;({ app, shop, other } = await appWithTwoShops())
  })
  after(() => app.close())

  it('issues a card with a generated code, loads it, finds it by code and keeps a ledger', async () => {
    const issued = await shop.api.post('/api/v1/gift-cards', { initial_balance: 25 })
    assert.equal(issued.status, 201)
    const card = issued.body.data
    assert.match(card.code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
    assert.deepEqual([card.balance, card.initial_balance, card.status], [25, 25, 'active'])
    assert.ok((await outbox(app, shop.merchant.orgId, 'gift_card.issued')).some((c) => c.id === card.id))
    const loaded = await shop.api.post(`/api/v1/gift-cards/${card.id}/load`, { amount: 10.5 })
    assert.equal(loaded.status, 200)
    assert.equal(loaded.body.data.balance, 35.5)
    const found = await shop.api.get(`/api/v1/gift-cards/lookup?code=${card.code.replaceAll('-', ' ').toLowerCase()}`)
    assert.equal(found.status, 200)
    assert.equal(found.body.data.id, card.id)
    assert.equal((await shop.api.get('/api/v1/gift-cards/lookup?code=AAAA-BBBB-CCCC-DDDD')).status, 404)
    const ledger = await shop.api.get(`/api/v1/gift-cards/${card.id}/ledger?limit=1`)
    assert.equal(ledger.status, 200)
    assert.deepEqual(
      ledger.body.data.map((e: { kind: string; amount: number; balance_after: number }) => [
        e.kind,
        e.amount,
        e.balance_after,
      ]),
      [['issue', 25, 25]],
    )
    const next = await shop.api.get(`/api/v1/gift-cards/${card.id}/ledger?cursor=${ledger.body.pagination.nextCursor}`)
    assert.deepEqual(
      next.body.data.map((e: { kind: string; amount: number; balance_after: number }) => [
        e.kind,
        e.amount,
        e.balance_after,
      ]),
      [['load', 10.5, 35.5]],
    )
    assert.equal((await shop.api.post(`/api/v1/gift-cards/${card.id}/load`, { amount: 0 })).status, 422)
    assert.equal((await shop.api.post('/api/v1/gift-cards', { initial_balance: 1.234 })).status, 422)
  })

  it('redeems atomically: parallel redemptions never take the balance below zero', async () => {
    const card = (await shop.api.post('/api/v1/gift-cards', { initial_balance: 30 })).body.data
    const productId = await shop.product(10, { stock: 20 })
    const orders = await Promise.all(
      Array.from(
        { length: 5 },
        async () =>
          (
            await shop.api.post('/api/v1/orders', {
              location_id: shop.locationId,
              lines: [{ product_id: productId, quantity: 1 }],
            })
          ).body.data,
      ),
    )
    const results = await Promise.all(
      orders.map((o) =>
        shop.api.post('/api/v1/payments', {
          order_id: o.id,
          amount: 10,
          method: 'gift_card',
          gift_card_code: card.code,
        }),
      ),
    )
    assert.equal(results.filter((r) => r.status === 201).length, 3)
    assert.ok(results.every((r) => r.status === 201 || r.status === 409))
    const after = (await shop.api.get(`/api/v1/gift-cards/${card.id}`)).body.data
    assert.deepEqual([after.balance, after.status], [0, 'depleted'])
    const redeemed = await outbox(app, shop.merchant.orgId, 'gift_card.redeemed')
    assert.equal(redeemed.filter((e) => e.id === card.id).length, 3)
    const ledger = (await shop.api.get(`/api/v1/gift-cards/${card.id}/ledger`)).body.data
    assert.equal(
      ledger.reduce((a: number, e: { amount: number }) => a + e.amount, 0),
      0,
    )
  })

  it('credits a refunded gift card payment back and reactivates a depleted card', async () => {
    const card = (await shop.api.post('/api/v1/gift-cards', { initial_balance: 8 })).body.data
    const productId = await shop.product(8, { stock: 2 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: productId, quantity: 1 }],
      })
    ).body.data
    await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 8,
      method: 'gift_card',
      gift_card_code: card.code,
    })
    assert.equal((await shop.api.get(`/api/v1/gift-cards/${card.id}`)).body.data.status, 'depleted')
    const refund = await shop.api.post(`/api/v1/orders/${order.id}/refund`, {
      amount: 3,
      restock: false,
      reason: 'price match',
    })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    const after = (await shop.api.get(`/api/v1/gift-cards/${card.id}`)).body.data
    assert.deepEqual([after.balance, after.status], [3, 'active'])
  })

  it('disables a card: no more loads or redemptions, disabling twice is 409', async () => {
    const card = (await shop.api.post('/api/v1/gift-cards', { initial_balance: 5 })).body.data
    const disabled = await shop.api.post(`/api/v1/gift-cards/${card.id}/disable`, { reason: 'lost' })
    assert.equal(disabled.status, 200)
    assert.equal(disabled.body.data.status, 'disabled')
    assert.equal((await shop.api.post(`/api/v1/gift-cards/${card.id}/disable`)).status, 409)
    assert.equal((await shop.api.post(`/api/v1/gift-cards/${card.id}/load`, { amount: 1 })).status, 409)
    const productId = await shop.product(1, { stock: 1 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: productId, quantity: 1 }],
      })
    ).body.data
    assert.equal(
      (
        await shop.api.post('/api/v1/payments', {
          order_id: order.id,
          amount: 1,
          method: 'gift_card',
          gift_card_code: card.code,
        })
      ).status,
      409,
    )
    await payInFull(shop.api, order.id, 1)
  })

  it('hides cards of another merchant behind a 404', async () => {
    const card = (await shop.api.post('/api/v1/gift-cards', { initial_balance: 5 })).body.data
    assert.equal((await other.api.get(`/api/v1/gift-cards/${card.id}`)).status, 404)
    assert.equal((await other.api.get(`/api/v1/gift-cards/lookup?code=${card.code}`)).status, 404)
    assert.equal((await other.api.post(`/api/v1/gift-cards/${card.id}/load`, { amount: 1 })).status, 404)
    assert.equal((await other.api.post(`/api/v1/gift-cards/${card.id}/disable`)).status, 404)
    assert.equal((await other.api.get(`/api/v1/gift-cards/${card.id}/ledger`)).status, 404)
    assert.equal((await shop.api.get(`/api/v1/gift-cards/${card.id}`)).body.data.balance, 5)
  })
})
