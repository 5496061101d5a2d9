import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loginAs, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/**
 * Rewards cannot be gamed (docs/loyalty.md "Rewards"). Each test failed before rewards had prices: a caller with
 * loyalty:write got a 100%-off voucher of a draft campaign for 1 point, and 5,000,000 points went for a 4.50
 * discount while the ledger recorded 50,000.00.
 */
describe('loyalty rewards at the prices the merchant sets', () => {
  let app: TestApp

  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  async function shopWithMember(points: number, programBody: object = {}) {
    const shop = await openShop(app)
    const program = await shop.api.post('/api/v1/loyalty/programs', { name: 'Club', ...programBody })
    assert.equal(program.status, 201, JSON.stringify(program.body))
    const customer = await shop.api.post('/api/v1/customers', {
      first_name: 'Rae',
      email: `rae-${Math.random().toString(36).slice(2)}@example.test`,
    })
    const customerId = customer.body.data.id as string
    const accrued = await shop.api.post('/api/v1/loyalty/points/accrue', {
      customer_id: customerId,
      points,
      reason: 'x',
    })
    assert.equal(accrued.status, 201, JSON.stringify(accrued.body))
    return { shop, programId: program.body.data.id as string, customerId }
  }

  const openOrder = async (shop: Shop, customerId: string, price: number) => {
    const product = await shop.product(price, { stock: 10 })
    const order = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      customer_id: customerId,
      lines: [{ product_id: product, quantity: 1 }],
    })
    assert.equal(order.status, 201, JSON.stringify(order.body))
    return order.body.data
  }

  const balanceOf = async (shop: Shop, customerId: string) =>
    (await shop.api.get(`/api/v1/loyalty/members/${customerId}`)).body.data.balance as number

  const staffOf = async (shop: Shop) => (await loginAs(app, shop.merchant.orgId, 'staff')).api

  it("charges a voucher reward's price, only from an active or scheduled campaign, and staff cannot set prices", async () => {
    const { shop, programId, customerId } = await shopWithMember(1000)
    const campaign = async (status: string) =>
      (
        await shop.api.post('/api/v1/campaigns', {
          name: `All off (${status})`,
          rules: [{ type: 'percentage', percent: 100 }],
          requires_voucher: true,
          status,
        })
      ).body.data.id as string
    const staff = await staffOf(shop)
    const refused = await staff.post(`/api/v1/loyalty/programs/${programId}/rewards`, {
      name: 'Free lunch',
      points: 1,
      gives: { type: 'voucher', campaign_id: await campaign('scheduled') },
    })
    assert.equal(refused.status, 403, 'prices are owners’ and managers’ (settings:write)')

    const priced = await shop.api.post(`/api/v1/loyalty/programs/${programId}/rewards`, {
      name: 'Free lunch',
      points: 400,
      gives: { type: 'voucher', campaign_id: await campaign('scheduled') },
    })
    assert.equal(priced.status, 201, JSON.stringify(priced.body))
    assert.deepEqual(
      (await shop.api.get(`/api/v1/loyalty/programs/${programId}/rewards`)).body.data.map((r: { id: string }) => r.id),
      [priced.body.data.id],
    )
    const draft = await shop.api.post(`/api/v1/loyalty/programs/${programId}/rewards`, {
      name: 'Draft lunch',
      points: 1,
      gives: { type: 'voucher', campaign_id: await campaign('draft') },
    })
    assert.equal(draft.status, 201)

    // A chosen number of points buys nothing once the program prices rewards; a voucher never did.
    const chosen = await staff.post('/api/v1/loyalty/points/redeem', {
      customer_id: customerId,
      points: 1,
      reward: { type: 'voucher', campaign_id: await campaign('scheduled') },
    })
    assert.equal(chosen.status, 422)
    const ofDraft = await staff.post('/api/v1/loyalty/points/redeem', {
      customer_id: customerId,
      reward_id: draft.body.data.id,
    })
    assert.equal(ofDraft.status, 409)
    assert.equal(ofDraft.body.code, 'LOYALTY_REWARD_UNAVAILABLE')
    assert.equal(await balanceOf(shop, customerId), 1000)

    const lunch = await staff.post('/api/v1/loyalty/points/redeem', {
      customer_id: customerId,
      reward_id: priced.body.data.id,
    })
    assert.equal(lunch.status, 201, JSON.stringify(lunch.body))
    assert.equal(lunch.body.data.movement.points, -400)
    assert.equal(lunch.body.data.reward.reward_id, priced.body.data.id)
    assert.equal(await balanceOf(shop, customerId), 600)
    const legacy = await shop.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: customerId,
      points: 10,
      reward: { type: 'order_discount', order_id: (await openOrder(shop, customerId, 5)).id },
    })
    assert.equal(legacy.status, 422)
    assert.equal(legacy.body.errors[0].field, 'reward_id')
  })

  it('an amount off takes only the points the order uses, records the real amount, and a void gives them back once', async () => {
    const { shop, programId, customerId } = await shopWithMember(1000)
    const reward = await shop.api.post(`/api/v1/loyalty/programs/${programId}/rewards`, {
      name: '5.00 off',
      points: 500,
      gives: { type: 'order_discount', amount: 5 },
    })
    assert.equal(reward.status, 201, JSON.stringify(reward.body))
    const order = await openOrder(shop, customerId, 3)
    const redeemed = await shop.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: customerId,
      reward_id: reward.body.data.id,
      order_id: order.id,
    })
    assert.equal(redeemed.status, 201, JSON.stringify(redeemed.body))
    // The order's 3.00 caps the 5.00: 300 of the 500 points, and the ledger says 3.00.
    assert.deepEqual(redeemed.body.data.reward, {
      type: 'order_discount',
      reward_id: reward.body.data.id,
      order_id: order.id,
      amount: 3,
    })
    assert.equal(redeemed.body.data.movement.points, -300)
    assert.equal(await balanceOf(shop, customerId), 700)
    assert.equal((await shop.api.get(`/api/v1/orders/${order.id}`)).body.data.total, 0)

    const voided = await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'voided' })
    assert.equal(voided.status, 200, JSON.stringify(voided.body))
    const member = (await shop.api.get(`/api/v1/loyalty/members/${customerId}`)).body.data
    assert.equal(member.balance, 1000)
    assert.deepEqual(
      [member.history[0].kind, member.history[0].points, member.history[0].order_id],
      ['reversal', 300, order.id],
    )
    assert.equal((await shop.api.patch(`/api/v1/orders/${order.id}/status`, { status: 'voided' })).status, 409)
    assert.equal(await balanceOf(shop, customerId), 1000, 'given back once')
  })

  it('a program that prices no reward takes only the points its discount uses', async () => {
    const { shop, customerId } = await shopWithMember(100_000, { point_value: 0.01 })
    const order = await openOrder(shop, customerId, 4.5)
    const redeemed = await shop.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: customerId,
      points: 100_000,
      reward: { type: 'order_discount', order_id: order.id },
    })
    assert.equal(redeemed.status, 201, JSON.stringify(redeemed.body))
    assert.equal(redeemed.body.data.reward.amount, 4.5, 'the real amount, not 1,000.00')
    assert.equal(redeemed.body.data.movement.points, -450)
    assert.equal(await balanceOf(shop, customerId), 100_000 - 450)
  })
})
