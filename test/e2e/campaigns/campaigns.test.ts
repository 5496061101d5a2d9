import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { moveDueCampaigns } from '../../../src/modules/campaigns/index.ts'
import { clientFor, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, payInFull, type Shop } from '../../support/shop.ts'

const DAY = 86_400_000

describe('campaigns', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    other = await openShop(app)
  })
  after(() => app.close())

  async function create(s: Shop, body: object) {
    const res = await s.api.post('/api/v1/campaigns', body)
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data
  }
  const activate = async (s: Shop, body: object) => create(s, { status: 'scheduled', ...body })
  const end = (s: Shop, id: string) => s.api.patch(`/api/v1/campaigns/${id}`, { status: 'ended' })

  it('creates, reads, lists and updates a campaign, keeping rule ids across an update', async () => {
    const made = await create(shop, {
      name: 'Spring',
      rules: [{ type: 'percentage', percent: 10 }],
      conditions: { min_spend: 20 },
    })
    assert.equal(made.status, 'draft')
    assert.match(made.rules[0].id, /^crl_/)
    assert.equal(made.stacking, 'stackable')
    const got = await shop.api.get(`/api/v1/campaigns/${made.id}`)
    assert.deepEqual(got.body.data, made)
    const list = await shop.api.get('/api/v1/campaigns?status=draft&limit=200')
    assert.ok(list.body.data.some((c: { id: string }) => c.id === made.id))
    const patched = await shop.api.patch(
      `/api/v1/campaigns/${made.id}`,
      {
        rules: [
          { ...made.rules[0], percent: 15 },
          { type: 'fixed_amount', amount: 1 },
        ],
      },
      { 'if-match': String(made.version) },
    )
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    assert.equal(patched.body.data.rules[0].id, made.rules[0].id)
    assert.equal(patched.body.data.rules[0].percent, 15)
    assert.match(patched.body.data.rules[1].id, /^crl_/)
    const stale = await shop.api.patch(
      `/api/v1/campaigns/${made.id}`,
      { name: 'x' },
      { 'if-match': String(made.version) },
    )
    assert.equal(stale.status, 409)
    assert.equal(stale.body.code, 'STALE_VERSION')
  })

  it('refuses bad campaigns with a 422 naming the field, and another org sees a 404', async () => {
    const tooPrecise = await shop.api.post('/api/v1/campaigns', {
      name: 'x',
      rules: [{ type: 'fixed_amount', amount: 1.234 }],
    })
    assert.equal(tooPrecise.status, 422)
    assert.equal(tooPrecise.body.errors[0].field, 'rules.0.amount')
    const backwards = await shop.api.post('/api/v1/campaigns', {
      name: 'x',
      rules: [{ type: 'percentage', percent: 5 }],
      starts_at: '2027-01-02T00:00:00.000Z',
      ends_at: '2027-01-01T00:00:00.000Z',
    })
    assert.equal(backwards.status, 422)
    assert.equal(backwards.body.errors[0].field, 'ends_at')
    const unknownRule = await shop.api.post('/api/v1/campaigns', { name: 'x', rules: [{ type: 'bogus' }] })
    assert.equal(unknownRule.status, 422)
    const mine = await create(shop, { name: 'Mine', rules: [{ type: 'percentage', percent: 5 }] })
    assert.equal((await other.api.get(`/api/v1/campaigns/${mine.id}`)).status, 404)
    assert.equal((await other.api.get(`/api/v1/campaigns/${mine.id}/stats`)).status, 404)
    assert.equal((await other.api.patch(`/api/v1/campaigns/${mine.id}`, { status: 'scheduled' })).status, 404)
  })

  it('moves exactly as the state table says, with events, and an illegal move is a 409', async () => {
    const c = await create(shop, {
      name: 'Moves',
      rules: [{ type: 'percentage', percent: 5 }],
      starts_at: new Date(Date.now() + 30 * DAY).toISOString(),
    })
    const illegal = await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'paused' })
    assert.equal(illegal.status, 409)
    assert.equal(illegal.body.code, 'CAMPAIGN_ILLEGAL_MOVE')
    assert.equal(illegal.body.type, 'https://errors.opentill.dev/campaign-illegal-move')
    const scheduled = await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'scheduled' })
    assert.equal(scheduled.body.data.status, 'scheduled')
    const started = await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'active' })
    assert.equal(started.body.data.status, 'active')
    assert.ok(new Date(started.body.data.starts_at).getTime() <= Date.now())
    const paused = await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'paused' })
    assert.equal(paused.body.data.status, 'paused')
    assert.equal((await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'ended' })).status, 409)
    assert.equal((await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'active' })).body.data.status, 'active')
    assert.equal((await end(shop, c.id)).body.data.status, 'ended')
    const afterEnd = await shop.api.patch(`/api/v1/campaigns/${c.id}`, { name: 'again' })
    assert.equal(afterEnd.status, 409)
    assert.equal(afterEnd.body.code, 'CAMPAIGN_ENDED')
    const back = await shop.api.patch(`/api/v1/campaigns/${c.id}`, { status: 'draft' })
    assert.equal(back.status, 409)
    const startedEvents = await outbox(app, shop.merchant.orgId, 'campaign.started')
    const endedEvents = await outbox(app, shop.merchant.orgId, 'campaign.ended')
    assert.equal(startedEvents.filter((e) => e.id === c.id).length, 1)
    assert.equal(endedEvents.filter((e) => e.id === c.id).length, 1)
  })

  it('starts and ends campaigns by time, with no request, on a controllable clock', async () => {
    const t0 = Date.now()
    const c = await create(shop, {
      name: 'Weekend',
      rules: [{ type: 'percentage', percent: 5 }],
      status: 'scheduled',
      starts_at: new Date(t0 + 2 * DAY).toISOString(),
      ends_at: new Date(t0 + 4 * DAY).toISOString(),
    })
    assert.equal(c.status, 'scheduled')
    const campaigns = app.services.campaigns
    const db = app.runtime.database
    await moveDueCampaigns(db, campaigns, new Date(t0 + DAY))
    assert.equal((await shop.api.get(`/api/v1/campaigns/${c.id}`)).body.data.status, 'scheduled')
    await moveDueCampaigns(db, campaigns, new Date(t0 + 3 * DAY))
    assert.equal((await shop.api.get(`/api/v1/campaigns/${c.id}`)).body.data.status, 'active')
    // A second worker at the same moment finds nothing to do: the event is written once.
    await moveDueCampaigns(db, campaigns, new Date(t0 + 3 * DAY))
    await moveDueCampaigns(db, campaigns, new Date(t0 + 5 * DAY))
    assert.equal((await shop.api.get(`/api/v1/campaigns/${c.id}`)).body.data.status, 'ended')
    assert.equal((await outbox(app, shop.merchant.orgId, 'campaign.started')).filter((e) => e.id === c.id).length, 1)
    assert.equal((await outbox(app, shop.merchant.orgId, 'campaign.ended')).filter((e) => e.id === c.id).length, 1)
  })

  it('applies campaigns in calculate and create, names campaign and rule on each line, and says why others did not apply', async () => {
    const s = await openShop(app)
    const coffee = await s.product(4.5, { stock: 50 })
    const cake = await s.product(6, { stock: 50 })
    await s.api.post('/api/v1/tax-rates', { name: 'VAT', rate: 10 })
    const tenOff = await activate(s, {
      name: '10% off cakes',
      rules: [{ type: 'percentage', percent: 10, target: 'line' }],
      conditions: { product_ids: [cake] },
    })
    await activate(s, {
      name: 'Big spender',
      rules: [{ type: 'fixed_amount', amount: 5 }],
      conditions: { min_spend: 50 },
    })
    const hat = await s.product(25, { stock: 5 })
    await activate(s, {
      name: 'Hats',
      rules: [{ type: 'percentage', percent: 30 }],
      conditions: { product_ids: [hat] },
    })
    await activate(s, {
      name: 'Elsewhere',
      rules: [{ type: 'percentage', percent: 50 }],
      conditions: { location_ids: ['loc_nowhere'] },
    })
    const body = {
      location_id: s.locationId,
      lines: [
        { product_id: coffee, quantity: 2 },
        { product_id: cake, quantity: 3 },
      ],
    }
    const calc = await s.api.post('/api/v1/orders/calculate', body)
    assert.equal(calc.status, 200, JSON.stringify(calc.body))
    const c = calc.body.data
    // Cakes 18.00 less 10 % = 16.20; coffee 9.00; tax 10 % on each line.
    assert.deepEqual(
      c.lines.map((l: { line_subtotal: number; line_discount: number; line_tax: number; line_total: number }) => [
        l.line_subtotal,
        l.line_discount,
        l.line_tax,
        l.line_total,
      ]),
      [
        [9, 0, 0.9, 9.9],
        [18, 1.8, 1.62, 17.82],
      ],
    )
    assert.deepEqual(c.lines[1].discounts, [
      { campaign_id: tenOff.id, rule_id: tenOff.rules[0].id, name: '10% off cakes', amount: 1.8 },
    ])
    assert.equal(c.total, 27.72)
    assert.deepEqual(
      c.campaigns.applied.map((a: { campaign_id: string; amount: number }) => [a.campaign_id, a.amount]),
      [[tenOff.id, 1.8]],
    )
    const why = Object.fromEntries(
      c.campaigns.not_applied.map((n: { name: string; reason: string }) => [n.name, n.reason]),
    )
    assert.equal(why['Big spender'], 'minimum spend 50.00 not reached')
    assert.equal(why.Elsewhere, 'not at this location')
    // A campaign for products the order does not have is left out unless asked for.
    assert.equal(why.Hats, undefined)
    const all = await s.api.post('/api/v1/orders/calculate?explain=all', body)
    const whyAll = Object.fromEntries(
      all.body.data.campaigns.not_applied.map((n: { name: string; reason: string }) => [n.name, n.reason]),
    )
    assert.equal(whyAll.Hats, 'no eligible product in the order')
    const made = await s.api.post('/api/v1/orders', body)
    assert.equal(made.status, 201, JSON.stringify(made.body))
    const order = made.body.data
    assert.equal(order.total, 27.72)
    assert.deepEqual(order.lines[1].discounts, c.lines[1].discounts)
    assert.deepEqual(order.discounts, [
      {
        type: 'campaign',
        value: 1.8,
        reason: '10% off cakes',
        amount: 1.8,
        campaign_id: tenOff.id,
        rule_id: tenOff.rules[0].id,
        rule_type: 'percentage',
        voucher_code: null,
      },
    ])
    assert.deepEqual((await s.api.get(`/api/v1/orders/${order.id}`)).body.data.lines[1].discounts, c.lines[1].discounts)
    const stats = await s.api.get(`/api/v1/campaigns/${tenOff.id}/stats`)
    assert.deepEqual(stats.body.data, {
      campaign_id: tenOff.id,
      currency: 'USD',
      redemptions: 1,
      voucher_redemptions: 0,
      orders: 1,
      discount_given: 1.8,
      revenue: 27.72,
      unique_customers: 0,
    })
  })

  it('answers 200 with zeros for the stats of a campaign nobody used', async () => {
    const c = await create(shop, { name: 'Unused', rules: [{ type: 'percentage', percent: 5 }] })
    const stats = await shop.api.get(`/api/v1/campaigns/${c.id}/stats`)
    assert.equal(stats.status, 200)
    assert.deepEqual(stats.body.data, {
      campaign_id: c.id,
      currency: 'USD',
      redemptions: 0,
      voucher_redemptions: 0,
      orders: 0,
      discount_given: 0,
      revenue: 0,
      unique_customers: 0,
    })
  })

  it('redeems a voucher once, refuses it used up (409), and gives the use back when the order is voided', async () => {
    const s = await openShop(app)
    const item = await s.product(20, { stock: 20 })
    const c = await activate(s, {
      name: '10% voucher',
      rules: [{ type: 'percentage', percent: 10 }],
      requires_voucher: true,
    })
    const vouchers = await s.api.post(`/api/v1/campaigns/${c.id}/vouchers`, { code: 'WELCOME10' })
    assert.equal(vouchers.status, 201, JSON.stringify(vouchers.body))
    assert.equal(vouchers.body.data[0].max_uses, 1)
    const taken = await s.api.post(`/api/v1/campaigns/${c.id}/vouchers`, { code: 'welcome10' })
    assert.equal(taken.status, 409)
    assert.equal(taken.body.code, 'VOUCHER_CODE_TAKEN')
    const body = { location_id: s.locationId, lines: [{ product_id: item, quantity: 1 }] }
    const without = await s.api.post('/api/v1/orders/calculate', body)
    assert.equal(without.body.data.total, 20)
    assert.equal(without.body.data.campaigns.not_applied[0].code, 'voucher_required')
    const unknown = await s.api.post('/api/v1/orders/calculate', { ...body, voucher_codes: ['NOPE'] })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'voucher_codes.0')
    const first = await s.api.post('/api/v1/orders', { ...body, voucher_codes: ['welcome10'] })
    assert.equal(first.status, 201, JSON.stringify(first.body))
    assert.equal(first.body.data.total, 18)
    assert.equal(first.body.data.discounts[0].voucher_code, 'WELCOME10')
    const usedUp = await s.api.post('/api/v1/orders/calculate', { ...body, voucher_codes: ['WELCOME10'] })
    assert.equal(usedUp.body.data.campaigns.not_applied[0].reason, 'voucher used up')
    const second = await s.api.post('/api/v1/orders', { ...body, voucher_codes: ['WELCOME10'] })
    assert.equal(second.status, 409)
    assert.equal(second.body.code, 'VOUCHER_USED_UP')
    const redeemed = await outbox(app, s.merchant.orgId, 'campaign.voucher_redeemed')
    assert.deepEqual(
      redeemed.map((e) => [e.code, e.order_id, e.discount]),
      [['WELCOME10', first.body.data.id, 2]],
    )
    const voided = await s.api.patch(`/api/v1/orders/${first.body.data.id}/status`, { status: 'voided' })
    assert.equal(voided.status, 200, JSON.stringify(voided.body))
    const list = await s.api.get(`/api/v1/campaigns/${c.id}/vouchers`)
    assert.equal(list.body.data[0].uses, 0)
    assert.equal(list.body.data[0].code, 'WELCOME10')
    // campaigns:read alone (staff) sees the codes masked: they were whole before, ready to redeem.
    const email = `staff-${Date.now()}@example.test`
    await app.runtime.database.transaction(s.merchant.orgId, (q) =>
      app.services.auth.createUser(q, { orgId: s.merchant.orgId, email, role: 'staff', password: 'staff-password' }),
    )
    const staff = await clientFor(app.api).post('/api/v1/auth/login', { email, password: 'staff-password' })
    const seen = await clientFor(app.api, staff.body.data.accessToken).get(`/api/v1/campaigns/${c.id}/vouchers`)
    assert.equal(seen.status, 200)
    assert.equal(seen.body.data[0].code, '*****ME10')
    const stats = await s.api.get(`/api/v1/campaigns/${c.id}/stats`)
    assert.equal(stats.body.data.redemptions, 0)
    const again = await s.api.post('/api/v1/orders', { ...body, voucher_codes: ['WELCOME10'] })
    assert.equal(again.status, 201, JSON.stringify(again.body))
  })

  it('generates voucher codes in bulk and keeps a per-customer limit', async () => {
    const s = await openShop(app)
    const item = await s.product(10, { stock: 20 })
    const customer = await s.api.post('/api/v1/customers', {
      first_name: 'Ana',
      email: `ana-${Date.now()}@example.test`,
    })
    assert.equal(customer.status, 201, JSON.stringify(customer.body))
    const customerId = customer.body.data.id
    const c = await activate(s, {
      name: 'Once each',
      rules: [{ type: 'fixed_amount', amount: 2 }],
      per_customer_limit: 1,
    })
    const bulk = await s.api.post(`/api/v1/campaigns/${c.id}/vouchers`, { count: 25, max_uses: 3 })
    assert.equal(bulk.status, 201)
    assert.equal(new Set(bulk.body.data.map((v: { code: string }) => v.code)).size, 25)
    assert.ok(bulk.body.data.every((v: { code: string }) => /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(v.code)))
    const body = { location_id: s.locationId, customer_id: customerId, lines: [{ product_id: item, quantity: 1 }] }
    const anonymous = await s.api.post('/api/v1/orders/calculate', { ...body, customer_id: null })
    assert.equal(anonymous.body.data.campaigns.not_applied[0].code, 'customer_required')
    const first = await s.api.post('/api/v1/orders', body)
    assert.equal(first.body.data.total, 8)
    const second = await s.api.post('/api/v1/orders', body)
    assert.equal(second.status, 201)
    assert.equal(second.body.data.total, 10)
    const why = await s.api.post('/api/v1/orders/calculate', body)
    assert.equal(why.body.data.campaigns.not_applied[0].code, 'customer_limit')
  })

  it('limits a campaign to customers with a tag, set through the customers API', async () => {
    const s = await openShop(app)
    const item = await s.product(10, { stock: 5 })
    const vip = await s.api.post('/api/v1/customers', {
      first_name: 'Vi',
      email: `vi-${Date.now()}@example.test`,
      tags: ['VIP', 'staff'],
    })
    assert.deepEqual(vip.body.data?.tags, ['VIP', 'staff'], JSON.stringify(vip.body))
    const plain = await s.api.post('/api/v1/customers', { first_name: 'Pl', email: `pl-${Date.now()}@example.test` })
    await activate(s, {
      name: 'VIP night',
      rules: [{ type: 'percentage', percent: 20 }],
      conditions: { customer_tags: ['vip'] },
    })
    const price = async (customerId: string) =>
      (
        await s.api.post('/api/v1/orders/calculate', {
          location_id: s.locationId,
          customer_id: customerId,
          lines: [{ product_id: item, quantity: 1 }],
        })
      ).body.data
    assert.equal((await price(vip.body.data.id)).total, 8)
    const other = await price(plain.body.data.id)
    assert.equal(other.total, 10)
    assert.equal(other.campaigns.not_applied[0].reason, 'only for customers tagged vip')
    const untagged = await s.api.patch(`/api/v1/customers/${vip.body.data.id}`, { tags: [] })
    assert.equal(untagged.status, 200, JSON.stringify(untagged.body))
    assert.equal((await price(vip.body.data.id)).total, 10)
  })

  it('refunds of a discounted order give back exactly what was paid', async () => {
    const s = await openShop(app)
    const a = await s.product(3.33, { stock: 50 })
    const b = await s.product(7.77, { stock: 50 })
    await s.api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    await activate(s, { name: '3 for 15', rules: [{ type: 'multi_buy', quantity: 3, price: 15 }] })
    await activate(s, { name: '7% off', rules: [{ type: 'percentage', percent: 7 }] })
    const order = await s.api.post('/api/v1/orders', {
      location_id: s.locationId,
      lines: [
        { product_id: a, quantity: 4 },
        { product_id: b, quantity: 3 },
      ],
    })
    assert.equal(order.status, 201, JSON.stringify(order.body))
    const o = order.body.data
    assert.equal(o.discounts.length, 2, JSON.stringify(o))
    await payInFull(s.api, o.id, o.total)
    for (const [line, quantity] of [
      [o.lines[0], 1],
      [o.lines[1], 2],
      [o.lines[0], 3],
      [o.lines[1], 1],
    ] as const) {
      const r = await s.api.post(`/api/v1/orders/${o.id}/refund`, { lines: [{ line_id: line.id, quantity }] })
      assert.equal(r.status, 201, JSON.stringify(r.body))
    }
    const after = await s.api.get(`/api/v1/orders/${o.id}`)
    assert.equal(after.body.data.status, 'refunded')
    assert.equal(after.body.data.amount_refunded, o.total)
  })
})
