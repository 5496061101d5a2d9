import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import { recordAudit } from '../../../src/modules/audit/index.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, payInFull, type Shop } from '../../support/shop.ts'

describe("the store's settings and the audit log", () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  it('serves the settings with defaults and changes them, each field checked, the currency kept', async () => {
    const initial = await shop.api.get('/api/v1/settings')
    assert.equal(initial.status, 200)
    assert.deepEqual(
      [initial.body.data.currency, initial.body.data.timezone, initial.body.data.tips, initial.body.data.version],
      ['USD', 'UTC', { enabled: false, percentages: [], base: 'before_tax', max_percent: 50 }, 1],
    )
    const changed = await shop.api.patch('/api/v1/settings', {
      name: 'Corner Cafe',
      phone: '+64 9 555 0100',
      address: { line1: '1 Queen St', city: 'Auckland', postal_code: '1010', country: 'NZ' },
      timezone: 'Pacific/Auckland',
      receipt_header: 'Corner Cafe',
      receipt_footer: 'Thank you!',
      tips: { enabled: true, percentages: [10, 15, 20], base: 'before_tax' },
      version: 1,
    })
    assert.equal(changed.status, 200, JSON.stringify(changed.body))
    assert.deepEqual(
      [changed.body.data.name, changed.body.data.timezone, changed.body.data.version],
      ['Corner Cafe', 'Pacific/Auckland', 2],
    )
    // A PATCH of the tips without their cap keeps the cap.
    assert.deepEqual(changed.body.data.tips, {
      enabled: true,
      percentages: [10, 15, 20],
      base: 'before_tax',
      max_percent: 50,
    })
    const bad = [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ currency: 'EUR' }, 'currency'],
      [{ tips: { enabled: true, percentages: [10, 10], base: 'before_tax' } }, 'tips.percentages'],
      [{ tips: { enabled: true, percentages: [], base: 'before_tax', max_percent: 0 } }, 'tips.max_percent'],
      [{ address: { country: 'nz' } }, 'address.country'],
    ] as const
    for (const [body, field] of bad) {
      const res = await shop.api.patch('/api/v1/settings', body)
      assert.ok([400, 422].includes(res.status), JSON.stringify(res.body))
      assert.equal(res.body.errors[0].field, field, JSON.stringify(res.body))
    }
    assert.equal((await shop.api.patch('/api/v1/settings', { phone: '1' }, { 'if-match': '1' })).status, 409)
    assert.equal((await shop.api.get('/api/v1/settings')).body.data.version, 2)
  })

  it('prices the next sale with tax-inclusive prices as soon as the setting changes', async () => {
    const product = await shop.product(11)
    await shop.api.post('/api/v1/tax-rates', { name: 'GST', rate: 10 })
    const total = async () =>
      (
        await shop.api.post('/api/v1/orders/calculate', {
          location_id: shop.locationId,
          lines: [{ product_id: product, quantity: 1 }],
        })
      ).body.data.total
    assert.equal(await total(), 12.1)
    assert.equal((await shop.api.patch('/api/v1/settings', { prices_include_tax: true })).status, 200)
    assert.equal(await total(), 11)
    await shop.api.patch('/api/v1/settings', { prices_include_tax: false })
  })

  it('records who changed what, in order, filtered and as CSV', async () => {
    const audit = await shop.api.get('/api/v1/audit-log?action=settings.updated')
    assert.equal(audit.status, 200)
    const latest = audit.body.data[0]
    assert.deepEqual(latest.changes, { prices_include_tax: { from: true, to: false } })
    assert.deepEqual(
      [latest.actor.kind, latest.actor.user_id, latest.record_type],
      ['user', shop.merchant.userId, 'settings'],
    )
    assert.ok(latest.request_id)
    const named = audit.body.data.find((e: { changes: Record<string, unknown> }) => 'timezone' in e.changes)
    assert.deepEqual(named.changes.timezone, { from: 'UTC', to: 'Pacific/Auckland' })

    const page1 = await shop.api.get('/api/v1/audit-log?limit=2')
    const page2 = await shop.api.get(`/api/v1/audit-log?limit=2&cursor=${page1.body.pagination.nextCursor}`)
    const ids = [...page1.body.data, ...page2.body.data].map((e: { id: string }) => e.id)
    assert.equal(new Set(ids).size, ids.length)
    assert.deepEqual([...ids].sort().reverse(), ids)

    const csv = await shop.api.get('/api/v1/audit-log?format=csv&action=settings.updated')
    assert.match(String(csv.headers['content-type']), /^text\/csv/)
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[]
    assert.equal(rows.length, audit.body.data.length)
    assert.deepEqual(JSON.parse(rows[0].changes), latest.changes)
    assert.equal(rows[0].actor_user_id, shop.merchant.userId)
  })

  it('audits voids, refunds, price changes and gift cards, never a refund that did not happen', async () => {
    const product = await shop.product(20, { stock: 10 })
    const patched = await shop.api.patch(`/api/v1/products/${product}`, { base_price: 22.5 })
    assert.equal(patched.status, 200)
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: product, quantity: 2 }],
      })
    ).body.data
    await payInFull(shop.api, order.id, order.total)
    const refund = await shop.api.post(`/api/v1/orders/${order.id}/refund`, { amount: 5, reason: 'cold coffee' })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    const over = await shop.api.post(`/api/v1/orders/${order.id}/refund`, { amount: 1000, reason: 'too much' })
    assert.equal(over.status, 409)
    const voidable = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: product, quantity: 1 }],
      })
    ).body.data
    assert.equal(
      (await shop.api.patch(`/api/v1/orders/${voidable.id}/status`, { status: 'voided', reason: 'mistake' })).status,
      200,
    )
    const card = await shop.api.post('/api/v1/gift-cards', { initial_balance: 50 })
    await shop.api.post(`/api/v1/gift-cards/${card.body.data.id}/load`, { amount: 25 })

    const entries = async (query: string) => (await shop.api.get(`/api/v1/audit-log?${query}`)).body.data
    assert.deepEqual((await entries(`record_id=${product}`))[0].changes, { base_price: { from: 20, to: 22.5 } })
    const refunds = await entries(`record_id=${order.id}&action=order.refunded`)
    assert.equal(refunds.length, 1)
    assert.deepEqual([refunds[0].changes.amount_minor, refunds[0].changes.reason], [500, 'cold coffee'])
    assert.equal((await entries(`record_id=${voidable.id}`))[0].action, 'order.voided')
    assert.deepEqual(
      (await entries(`record_id=${card.body.data.id}`)).map((e: { action: string }) => e.action),
      ['gift_card.loaded', 'gift_card.issued'],
    )
    // Ids and amounts only: the card's code is nowhere in the log.
    const all = JSON.stringify(await entries('limit=200'))
    assert.ok(!all.includes(card.body.data.code))
  })

  it("audits campaigns, automations and the owner's own apps, each change as it was made", async () => {
    const ok = async (res: Promise<{ status: number; body: { data: { id: string; version?: number } } }>) => {
      const answer = await res
      assert.ok(answer.status < 300, JSON.stringify(answer.body))
      return answer.body.data
    }
    const campaign = await ok(
      shop.api.post('/api/v1/campaigns', {
        name: 'Spring',
        status: 'draft',
        rules: [{ type: 'percentage', percent: 10 }],
      }),
    )
    await ok(shop.api.patch(`/api/v1/campaigns/${campaign.id}`, { status: 'scheduled', version: campaign.version }))
    await ok(shop.api.post(`/api/v1/campaigns/${campaign.id}/vouchers`, { count: 3 }))
    const rule = await ok(
      shop.api.post('/api/v1/automations', {
        name: 'Tag regulars',
        trigger: { type: 'event', event: 'customer.created' },
        conditions: { match: 'all', rules: [{ path: 'email', op: 'contains', value: '@vip.example' }] },
        actions: [
          { type: 'tag_customer', tag: 'regular', customer_path: 'id' },
          { type: 'send_email', to: 'owner@vip.example', subject: 'New regular', text: '{{email}}' },
        ],
      }),
    )
    await ok(shop.api.patch(`/api/v1/automations/${rule.id}`, { enabled: false, version: rule.version }))
    assert.equal((await shop.api.delete(`/api/v1/automations/${rule.id}`)).status, 204)
    const registered = await shop.api.post('/api/v1/apps', {
      name: 'Stocktake',
      redirect_uris: ['https://stocktake.example/cb'],
      allowed_scopes: ['inventory:read'],
    })
    assert.equal(registered.status, 201, JSON.stringify(registered.body))
    const clientId = registered.body.data.client_id
    await ok(shop.api.patch(`/api/v1/apps/${clientId}`, { allowed_scopes: ['inventory:read', 'catalog:read'] }))
    await ok(shop.api.post(`/api/v1/apps/${clientId}/rotate-secret`))

    const entries = (await shop.api.get('/api/v1/audit-log?limit=20')).body.data as {
      action: string
      record_id: string
      changes: Record<string, unknown>
      actor: { user_id: string }
    }[]
    const mine = entries.filter((e) => [campaign.id, rule.id, clientId].includes(e.record_id)).reverse()
    assert.deepEqual(
      mine.map((e) => e.action),
      [
        'campaign.created',
        'campaign.updated',
        'campaign.vouchers_issued',
        'automation.created',
        'automation.updated',
        'automation.deleted',
        'app.registered',
        'app.updated',
        'app.secret_rotated',
      ],
    )
    assert.ok(mine.every((e) => e.actor.user_id === shop.merchant.userId))
    assert.deepEqual(mine[0].changes, { name: 'Spring', status: 'draft', rules: 1 })
    assert.deepEqual(mine[1].changes.status, { from: 'draft', to: 'scheduled' })
    assert.deepEqual(mine[2].changes, { count: 3, max_uses: 1 })
    // The rule's shape, never the values it compares or an e-mail's address and text.
    assert.deepEqual(mine[3].changes, {
      name: 'Tag regulars',
      enabled: true,
      author: shop.merchant.userId,
      trigger: { type: 'event', event: 'customer.created' },
      conditions: 'all: email contains',
      actions: ['tag_customer', 'send_email'],
    })
    assert.ok(!JSON.stringify(mine[3].changes).includes('vip.example'))
    assert.deepEqual(mine[4].changes, { enabled: { from: true, to: false } })
    assert.deepEqual(mine[5].changes, { name: 'Tag regulars' })
    assert.deepEqual(mine[6].changes, {
      name: 'Stocktake',
      allowed_scopes: ['inventory:read'],
      client_type: 'confidential',
    })
    assert.deepEqual(mine[7].changes, {
      allowed_scopes: { from: ['inventory:read'], to: ['catalog:read', 'inventory:read'] },
    })
  })

  it('writes an entry in the transaction of its change: one that rolls back leaves none', async () => {
    const ctx = systemContext(app.runtime.database, shop.merchant.orgId, [])
    await assert.rejects(
      ctx.db.tx(async (q) => {
        await recordAudit(q, ctx, { action: 'settings.updated', record: { type: 'settings', id: 'rolled-back' } })
        throw new Error('the change failed after its entry was written')
      }),
      /the change failed/,
    )
    assert.deepEqual((await shop.api.get('/api/v1/audit-log?record_id=rolled-back')).body.data, [])
  })

  it("refuses the app's database role any UPDATE or DELETE of the log", async () => {
    for (const sql of ["UPDATE audit_log SET action = 'order.voided'", 'DELETE FROM audit_log']) {
      await assert.rejects(
        app.runtime.database.transaction(shop.merchant.orgId, (q) => q.query(sql)),
        /permission denied/,
      )
    }
    assert.ok((await shop.api.get('/api/v1/audit-log')).body.data.length > 0)
  })

  it('keeps another org out of the log', async () => {
    const other = await openShop(app)
    assert.deepEqual((await other.api.get('/api/v1/audit-log')).body.data, [])
  })
})
