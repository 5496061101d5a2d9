import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/** Real concurrency on real PostgreSQL: each request its own transaction on its own pooled connection. */
describe('loyalty points under concurrency', () => {
  let app: TestApp
  let shop: Shop
  let rewardId: string

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    const program = await shop.api.post('/api/v1/loyalty/programs', { name: 'Points', expiry_days: 365 })
    const campaignId = (
      await shop.api.post('/api/v1/campaigns', {
        name: 'Reward',
        rules: [{ type: 'fixed_amount', amount: 5 }],
        requires_voucher: true,
        status: 'scheduled',
      })
    ).body.data.id
    rewardId = (
      await shop.api.post(`/api/v1/loyalty/programs/${program.body.data.id}/rewards`, {
        name: 'A 5.00 voucher',
        points: 15,
        gives: { type: 'voucher', campaign_id: campaignId },
      })
    ).body.data.id
  })
  after(() => app.close())

  async function memberWith(points: number[]) {
    const c = await shop.api.post('/api/v1/customers', { first_name: 'R', email: `r-${Math.random()}@example.test` })
    for (const p of points) {
      const res = await shop.api.post('/api/v1/loyalty/points/accrue', {
        customer_id: c.body.data.id,
        points: p,
        reason: 'lot',
      })
      assert.equal(res.status, 201, JSON.stringify(res.body))
    }
    return c.body.data.id as string
  }
  /** Redeems the 15-point voucher reward. */
  const redeem = (customerId: string) =>
    shop.api.post('/api/v1/loyalty/points/redeem', { customer_id: customerId, reward_id: rewardId })

  it('never overdraws a balance: of 20 redemptions at once, exactly as many succeed as the balance allows', async () => {
    const customerId = await memberWith([40, 30, 30])
    const results = await Promise.all(Array.from({ length: 20 }, () => redeem(customerId)))
    const ok = results.filter((r) => r.status === 201)
    assert.equal(ok.length, 6, JSON.stringify(results.map((r) => [r.status, r.body.code])))
    for (const r of results.filter((x) => x.status !== 201)) assert.equal(r.body.code, 'INSUFFICIENT_POINTS')
    const m = (await shop.api.get(`/api/v1/loyalty/members/${customerId}?limit=200`)).body.data
    assert.equal(m.balance, 10)
    // The ledger adds up: every movement's balance_after follows from the one before, none below zero.
    const history = [...m.history].reverse()
    let balance = 0
    for (const h of history) {
      balance += h.points
      assert.equal(h.balance_after, balance)
      assert.ok(balance >= 0)
    }
    // Each success issued exactly one voucher.
    const codes = new Set(ok.map((r) => r.body.data.reward.voucher_code))
    assert.equal(codes.size, 6)
  })
})
