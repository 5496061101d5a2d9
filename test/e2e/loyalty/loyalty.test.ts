import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { expireDuePoints } from '../../../src/modules/loyalty/index.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, payInFull, type Shop } from '../../support/shop.ts'

const DAY = 86_400_000

describe('loyalty', () => {
  let app: TestApp

  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  let n = 0
  async function customer(s: Shop) {
    const res = await s.api.post('/api/v1/customers', {
      first_name: 'Member',
      email: `m${++n}-${Date.now()}@example.test`,
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data.id as string
  }
  async function program(s: Shop, body: object = {}) {
    const res = await s.api.post('/api/v1/loyalty/programs', { name: 'Points', ...body })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data
  }
  /** An order for a customer, paid in full (so it completes and earns). */
  async function sale(s: Shop, customerId: string, lines: { product_id: string; quantity: number }[]) {
    const made = await s.api.post('/api/v1/orders', { location_id: s.locationId, customer_id: customerId, lines })
    assert.equal(made.status, 201, JSON.stringify(made.body))
    await payInFull(s.api, made.body.data.id, made.body.data.total)
    return (await s.api.get(`/api/v1/orders/${made.body.data.id}`)).body.data
  }
  const member = async (s: Shop, customerId: string) =>
    (await s.api.get(`/api/v1/loyalty/members/${customerId}`)).body.data

  it('gives a member the base tier (threshold 0) when they join, before any point moves', async () => {
    // The tier was null until points first moved, against docs/loyalty.md.
    const s = await openShop(app)
    await program(s, {
      tiers: [
        { name: 'Bronze', threshold: 0, multiplier: 1, benefits: [] },
        { name: 'Gold', threshold: 500, multiplier: 2, benefits: [] },
      ],
    })
    const c = await customer(s)
    const joined = await s.api.post('/api/v1/loyalty/members', { customer_id: c })
    assert.equal(joined.status, 201, JSON.stringify(joined.body))
    assert.equal(joined.body.data.tier?.name ?? joined.body.data.tier, 'Bronze')
    const read = await member(s, c)
    assert.equal(read.tier?.name ?? read.tier, 'Bronze')
  })

  it('counts the points owed by tier in the loyalty report, the totals their sum', async () => {
    const s = await openShop(app)
    const p = await program(s, {
      point_value: 0.01,
      tiers: [
        { name: 'Bronze', threshold: 0, multiplier: 1, benefits: [] },
        { name: 'Gold', threshold: 500, multiplier: 2, benefits: [] },
      ],
    })
    for (const points of [600, 100, 150]) {
      const c = await customer(s)
      const accrued = await s.api.post('/api/v1/loyalty/points/accrue', { customer_id: c, points, reason: 'welcome' })
      assert.equal(accrued.status, 201, JSON.stringify(accrued.body))
    }
    assert.equal(p.point_value, 0.01)
    const report = (await s.api.get('/api/v1/reports/loyalty')).body.data
    assert.deepEqual(report.rows, [
      { tier: 'Bronze', members: 2, points_outstanding: 250, value: 2.5 },
      { tier: 'Gold', members: 1, points_outstanding: 600, value: 6 },
    ])
    assert.deepEqual(report.totals, { members: 3, points_outstanding: 850, value: 8.5 })
  })

  it('creates, reads, lists and updates a program; only one is active per org', async () => {
    const s = await openShop(app)
    const p = await program(s, {
      points_per_unit: 1.5,
      tiers: [
        { name: 'Silver', threshold: 0, multiplier: 1, benefits: [] },
        { name: 'Gold', threshold: 500, multiplier: 2, benefits: ['free coffee'] },
      ],
    })
    assert.equal(p.status, 'active')
    assert.equal(p.points_per_unit, 1.5)
    assert.equal(p.rounding, 'floor')
    assert.equal(p.tiers[1].multiplier, 2)
    assert.deepEqual((await s.api.get(`/api/v1/loyalty/programs/${p.id}`)).body.data, p)
    assert.equal((await s.api.get('/api/v1/loyalty/programs')).body.data.length, 1)
    const second = await s.api.post('/api/v1/loyalty/programs', { name: 'Another' })
    assert.equal(second.status, 409)
    assert.equal(second.body.code, 'LOYALTY_ACTIVE_PROGRAM_EXISTS')
    const inactive = await s.api.post('/api/v1/loyalty/programs', { name: 'Draft', status: 'inactive' })
    assert.equal(inactive.status, 201)
    const patched = await s.api.patch(`/api/v1/loyalty/programs/${p.id}`, { expiry_days: 365 }, { 'if-match': '1' })
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    assert.equal(patched.body.data.expiry_days, 365)
    const bad = await s.api.patch(`/api/v1/loyalty/programs/${p.id}`, { points_per_unit: 0.00001 })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.errors[0].field, 'points_per_unit')
    const other = await openShop(app)
    assert.equal((await other.api.get(`/api/v1/loyalty/programs/${p.id}`)).status, 404)
  })

  it('accrues on completion with the tier multiplier and exclusions, shows it on the order, and joins on first accrual', async () => {
    const s = await openShop(app)
    const coffee = await s.product(4.5, { stock: 100 })
    const giftCard = await s.product(50, { stock: 100 })
    await program(s, {
      excluded_product_ids: [giftCard],
      tiers: [
        { name: 'Silver', threshold: 0, multiplier: 1, benefits: [] },
        { name: 'Gold', threshold: 20, multiplier: 2, benefits: ['double points'] },
      ],
    })
    const c = await customer(s)
    const first = await sale(s, c, [
      { product_id: coffee, quantity: 5 },
      { product_id: giftCard, quantity: 1 },
    ])
    // 22.50 spent on coffee earns 22 points (floor); the gift card earns nothing.
    assert.equal(first.status, 'completed')
    assert.equal(first.loyalty_points_earned, 22)
    const customerRow = (await s.api.get(`/api/v1/customers/${c}`)).body.data
    assert.match(customerRow.loyalty_member_id, /^lmb_/)
    let m = await member(s, c)
    assert.equal(m.balance, 22)
    assert.equal(m.tier.name, 'Gold')
    assert.equal(m.next_tier, null)
    // Gold earns double: 9.00 → 18 points.
    const second = await sale(s, c, [{ product_id: coffee, quantity: 2 }])
    assert.equal(second.loyalty_points_earned, 18)
    m = await member(s, c)
    assert.equal(m.balance, 40)
    assert.equal(m.lifetime_points, 40)
    assert.deepEqual(
      m.history.map((h: { kind: string; points: number; balance_after: number; order_id: string }) => [
        h.kind,
        h.points,
        h.balance_after,
        h.order_id,
      ]),
      [
        ['accrual', 18, 40, second.id],
        ['accrual', 22, 22, first.id],
      ],
    )
    const completed = await outbox(app, s.merchant.orgId, 'order.completed')
    assert.equal(completed.find((o) => o.id === second.id).loyalty_points_earned, 18)
    const earned = await outbox(app, s.merchant.orgId, 'loyalty.points_earned')
    assert.equal(earned.length, 2)
    const tierChanged = await outbox(app, s.merchant.orgId, 'loyalty.tier_changed')
    assert.deepEqual(
      tierChanged.map((e) => [e.previous_tier, e.tier.name]),
      // The member held the base tier from joining (it was null before points first moved).
      [['Silver', 'Gold']],
    )
  })

  it('takes back the points of what was refunded, in any split, and never below zero', async () => {
    const s = await openShop(app)
    const item = await s.product(10, { stock: 100 })
    const points = await program(s, {})
    const c = await customer(s)
    const o = await sale(s, c, [{ product_id: item, quantity: 3 }])
    assert.equal(o.loyalty_points_earned, 30)
    await s.api.post(`/api/v1/orders/${o.id}/refund`, { lines: [{ line_id: o.lines[0].id, quantity: 1 }] })
    assert.equal((await member(s, c)).balance, 20)
    await s.api.post(`/api/v1/orders/${o.id}/refund`, { lines: [{ line_id: o.lines[0].id, quantity: 2 }] })
    const m = await member(s, c)
    assert.equal(m.balance, 0)
    assert.equal(m.lifetime_points, 0)
    assert.equal(m.lifetime_spend, 0)
    // Points already spent cannot come back: the movement says how many were missing.
    const o2 = await sale(s, c, [{ product_id: item, quantity: 1 }])
    const reward = await s.api.post(`/api/v1/loyalty/programs/${points.id}/rewards`, {
      name: 'A 1.00 voucher',
      points: 10,
      gives: {
        type: 'voucher',
        campaign_id: (
          await s.api.post('/api/v1/campaigns', {
            name: 'Reward',
            rules: [{ type: 'fixed_amount', amount: 1 }],
            requires_voucher: true,
            status: 'scheduled',
          })
        ).body.data.id,
      },
    })
    assert.equal(reward.status, 201, JSON.stringify(reward.body))
    const redeemed = await s.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: c,
      reward_id: reward.body.data.id,
    })
    assert.equal(redeemed.status, 201, JSON.stringify(redeemed.body))
    await s.api.post(`/api/v1/orders/${o2.id}/refund`, {})
    const after = await member(s, c)
    assert.equal(after.balance, 0)
    assert.match(after.history[0].reason, /10 points were already spent/)
  })

  it('redeems points for an amount off an open order and for a voucher that the order then takes', async () => {
    const s = await openShop(app)
    const item = await s.product(20, { stock: 100 })
    const points = await program(s, { point_value: 0.01 })
    const c = await customer(s)
    const accrued = await s.api.post('/api/v1/loyalty/points/accrue', {
      customer_id: c,
      points: 500,
      reason: 'welcome',
    })
    assert.equal(accrued.status, 201, JSON.stringify(accrued.body))
    assert.equal(accrued.body.data.member.balance, 500)
    const open = await s.api.post('/api/v1/orders', {
      location_id: s.locationId,
      customer_id: c,
      lines: [{ product_id: item, quantity: 1 }],
    })
    const off = await s.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: c,
      points: 300,
      reward: { type: 'order_discount', order_id: open.body.data.id },
    })
    assert.equal(off.status, 201, JSON.stringify(off.body))
    assert.deepEqual(off.body.data.reward, { type: 'order_discount', order_id: open.body.data.id, amount: 3 })
    assert.equal(off.body.data.member.balance, 200)
    const order = (await s.api.get(`/api/v1/orders/${open.body.data.id}`)).body.data
    assert.equal(order.total, 17)
    assert.equal(order.discounts.at(-1).reason, '300 loyalty points')
    const updated = await outbox(app, s.merchant.orgId, 'order.updated')
    assert.equal(updated.at(-1).total, 17)
    const campaign = (
      await s.api.post('/api/v1/campaigns', {
        name: 'Points reward',
        rules: [{ type: 'percentage', percent: 50 }],
        requires_voucher: true,
        status: 'scheduled',
      })
    ).body.data
    // A voucher is a priced reward of the program: a number of points the caller chooses buys none.
    const chosen = await s.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: c,
      points: 1,
      reward: { type: 'voucher', campaign_id: campaign.id },
    })
    assert.equal(chosen.status, 422)
    assert.equal(chosen.body.errors[0].code, 'priced_reward_required')
    const reward = (
      await s.api.post(`/api/v1/loyalty/programs/${points.id}/rewards`, {
        name: 'Half off',
        points: 200,
        gives: { type: 'voucher', campaign_id: campaign.id },
      })
    ).body.data
    const voucher = await s.api.post('/api/v1/loyalty/points/redeem', { customer_id: c, reward_id: reward.id })
    assert.equal(voucher.status, 201, JSON.stringify(voucher.body))
    const code = voucher.body.data.reward.voucher_code
    const withVoucher = await s.api.post('/api/v1/orders', {
      location_id: s.locationId,
      customer_id: c,
      lines: [{ product_id: item, quantity: 1 }],
      voucher_codes: [code],
    })
    assert.equal(withVoucher.body.data.total, 10)
    const broke = await s.api.post('/api/v1/loyalty/points/redeem', { customer_id: c, reward_id: reward.id })
    assert.equal(broke.status, 409)
    assert.equal(broke.body.code, 'INSUFFICIENT_POINTS')
    assert.equal((await outbox(app, s.merchant.orgId, 'loyalty.points_redeemed')).length, 2)
  })

  it('expires the oldest points first, on a controllable clock, and a balance leaves them out before the job runs', async () => {
    const s = await openShop(app)
    await program(s, { expiry_days: 30 })
    const c = await customer(s)
    await s.api.post('/api/v1/loyalty/points/accrue', { customer_id: c, points: 100, reason: 'first' })
    const lots = await app.runtime.database.unscoped((q) =>
      q.query<{ id: string; expires_at: Date }>('SELECT id, expires_at FROM loyalty_lots WHERE org_id = $1', [
        s.merchant.orgId,
      ]),
    )
    const expiresAt = lots.rows[0].expires_at.getTime()
    assert.ok(Math.abs(expiresAt - (Date.now() + 30 * DAY)) < 60_000)
    // Nothing is due yet.
    assert.equal(await expireDuePoints(app.runtime.database, app.services.loyalty, new Date(expiresAt - 1000)), 0)
    assert.equal((await member(s, c)).balance, 100)
    assert.ok((await expireDuePoints(app.runtime.database, app.services.loyalty, new Date(expiresAt + 1000))) >= 1)
    const m = await member(s, c)
    assert.equal(m.balance, 0)
    assert.equal(m.lifetime_points, 100)
    assert.deepEqual(
      m.history.map((h: { kind: string; points: number; balance_after: number }) => [
        h.kind,
        h.points,
        h.balance_after,
      ]),
      [
        ['expiry', -100, 0],
        ['adjustment', 100, 100],
      ],
    )
    // Time passes without the job: a lot whose expiry is behind us no longer counts in the balance, nor can it be
    // redeemed, and the redemption itself expires it first.
    await s.api.post('/api/v1/loyalty/points/accrue', { customer_id: c, points: 40, reason: 'second' })
    await s.api.post('/api/v1/loyalty/points/accrue', { customer_id: c, points: 25, reason: 'third' })
    await app.runtime.database.unscoped((q) =>
      q.query(
        `UPDATE loyalty_lots SET expires_at = now() - interval '1 day'
         WHERE org_id = $1 AND points = 40`,
        [s.merchant.orgId],
      ),
    )
    assert.equal((await member(s, c)).balance, 25)
    const tooMuch = await s.api.post('/api/v1/loyalty/points/redeem', {
      customer_id: c,
      points: 26,
      reward: { type: 'order_discount', order_id: 'ord_none' },
    })
    assert.equal(tooMuch.status, 409)
    const kinds = (await member(s, c)).history.map((h: { kind: string; points: number }) => [h.kind, h.points])
    assert.deepEqual(kinds.slice(0, 3), [
      ['adjustment', 25],
      ['adjustment', 40],
      ['expiry', -100],
    ])
  })

  it('answers the deprecated rewards endpoint from the same data, with a Link to the member lookup', async () => {
    const s = await openShop(app)
    await program(s, {})
    const c = await customer(s)
    await s.api.post('/api/v1/loyalty/points/accrue', { customer_id: c, points: 42, reason: 'hello' })
    const res = await s.api.get(`/api/v1/customers/${c}/rewards`)
    assert.equal(res.status, 200)
    assert.equal(res.body.data.points_balance, 42)
    const link = String(res.headers.link)
    assert.match(link, /successor-version/)
    const successor = /<([^>]+)>/.exec(link)![1]
    const followed = await s.api.get(successor)
    assert.equal(followed.status, 200)
    assert.equal(followed.body.data.balance, 42)
    assert.equal(followed.body.data.id, res.body.data.loyalty_member_id)
  })

  it('refuses another org’s customer and a customer who is not a member', async () => {
    const s = await openShop(app)
    const other = await openShop(app)
    await program(s, {})
    await program(other, {})
    const c = await customer(s)
    assert.equal((await other.api.get(`/api/v1/loyalty/members/${c}`)).status, 404)
    const accrue = await other.api.post('/api/v1/loyalty/points/accrue', { customer_id: c, points: 5, reason: 'x' })
    assert.equal(accrue.status, 422)
    assert.equal(accrue.body.errors[0].field, 'customer_id')
    assert.equal((await s.api.get(`/api/v1/loyalty/members/${c}`)).status, 404)
    const joined = await s.api.post('/api/v1/loyalty/members', { customer_id: c })
    assert.equal(joined.status, 201)
    assert.equal(joined.body.data.tier, null, 'a program without tiers has no base tier')
    assert.equal((await s.api.post('/api/v1/loyalty/members', { customer_id: c })).status, 200)
    // Joining is a change to the customer, told like any other (no customer.updated was emitted before).
    const updated = (await outbox(app, s.merchant.orgId, 'customer.updated')).filter((e) => e.id === c)
    assert.equal(updated.length, 1)
    assert.equal(updated[0].loyalty_member_id, joined.body.data.id)
  })
})
