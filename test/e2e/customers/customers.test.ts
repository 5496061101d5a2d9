import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../support/harness.ts'
import { outbox, payInFull, type Shop } from '../../support/shop.ts'
import { appWithTwoShops } from '../../support/two-orgs.ts'

describe('customers', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop

  before(async () => {
    ;({ app, shop, other } = await appWithTwoShops())
  })
  after(() => app.close())

  it('creates a customer, then upserts by e-mail or phone instead of duplicating', async () => {
    const created = await shop.api.post('/api/v1/customers', {
      first_name: 'Ana',
      last_name: 'Silva',
      email: 'Ana@Example.test',
      phone: '+64 21 555 0101',
      birthday: '1990-04-12',
      preferences: { receipt: 'email' },
    })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    const ana = created.body.data
    assert.deepEqual(
      [ana.birthday, ana.preferences, ana.loyalty_member_id, ana.version],
      ['1990-04-12', { receipt: 'email' }, null, 1],
    )
    const byEmail = await shop.api.post('/api/v1/customers', { email: 'ana@example.TEST', last_name: 'Silva-Jones' })
    assert.equal(byEmail.status, 200)
    assert.equal(byEmail.body.data.id, ana.id)
    assert.equal(byEmail.body.data.last_name, 'Silva-Jones')
    assert.equal(byEmail.body.data.first_name, 'Ana')
    const byPhone = await shop.api.post('/api/v1/customers', { phone: '+6421-555-0101', loyalty_member_id: 'LM-1' })
    assert.equal(byPhone.status, 200)
    assert.equal(byPhone.body.data.id, ana.id)
    assert.equal(byPhone.body.data.loyalty_member_id, 'LM-1')
    assert.ok((await outbox(app, shop.merchant.orgId, 'customer.created')).some((c) => c.id === ana.id))
    assert.equal((await outbox(app, shop.merchant.orgId, 'customer.updated')).filter((c) => c.id === ana.id).length, 2)
    const missing = await shop.api.post('/api/v1/customers', { first_name: 'Nobody' })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'email')
    assert.equal((await shop.api.post('/api/v1/customers', { email: 'not-an-email' })).status, 422)
    assert.equal(
      (await shop.api.post('/api/v1/customers', { email: 'x@example.test', birthday: '1990-13-45' })).status,
      422,
    )
  })

  it('upserts one customer from parallel creates with the same e-mail', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => shop.api.post('/api/v1/customers', { email: 'race@example.test' })),
    )
    assert.ok(
      results.every((r) => r.status === 200 || r.status === 201),
      JSON.stringify(results.map((r) => r.body)),
    )
    assert.equal(new Set(results.map((r) => r.body.data.id)).size, 1)
  })

  it('searches by name, e-mail and phone with pagination', async () => {
    for (const [first, email] of [
      ['Zed', 'zed1@example.test'],
      ['Zelda', 'zelda@example.test'],
      ['Zora', 'zora@example.test'],
    ]) {
      await shop.api.post('/api/v1/customers', { first_name: first, email })
    }
    const page = await shop.api.get('/api/v1/customers?q=ze&limit=1')
    assert.equal(page.status, 200)
    assert.equal(page.body.data.length, 1)
    assert.equal(page.body.pagination.hasMore, true)
    const rest = await shop.api.get(`/api/v1/customers?q=ze&cursor=${page.body.pagination.nextCursor}`)
    assert.deepEqual(
      [...page.body.data, ...rest.body.data].map((c: { first_name: string }) => c.first_name),
      ['Zed', 'Zelda'],
    )
    assert.equal((await shop.api.get('/api/v1/customers?q=zora@')).body.data.length, 1)
    assert.equal((await shop.api.get('/api/v1/customers?q=555%200101')).body.data.length, 1)
  })

  it('updates fields with optimistic concurrency and refuses taken e-mails', async () => {
    const c = (await shop.api.post('/api/v1/customers', { email: 'pat@example.test' })).body.data
    const updated = await shop.api.patch(`/api/v1/customers/${c.id}`, {
      preferences: { sms: false },
      birthday: '1985-01-31',
      version: c.version,
    })
    assert.equal(updated.status, 200)
    assert.deepEqual(
      [updated.body.data.preferences, updated.body.data.birthday, updated.body.data.version],
      [{ sms: false }, '1985-01-31', 2],
    )
    assert.equal(
      (await shop.api.patch(`/api/v1/customers/${c.id}`, { first_name: 'Pat' }, { 'if-match': '1' })).status,
      409,
    )
    assert.equal((await shop.api.patch(`/api/v1/customers/${c.id}`, { email: 'zora@example.test' })).status, 409)
    assert.equal((await shop.api.patch(`/api/v1/customers/${c.id}`, { email: null })).status, 422)
    assert.equal((await shop.api.patch(`/api/v1/customers/${c.id}`, { id: 'cus_x' })).status, 422)
  })

  it('shows a profile with purchase history and the customer orders', async () => {
    const c = (await shop.api.post('/api/v1/customers', { email: 'buyer@example.test' })).body.data
    const productId = await shop.product(20, { stock: 5 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        customer_id: c.id,
        lines: [{ product_id: productId, quantity: 2 }],
      })
    ).body.data
    await payInFull(shop.api, order.id, order.total)
    const profile = await shop.api.get(`/api/v1/customers/${c.id}`)
    assert.equal(profile.status, 200)
    assert.deepEqual(
      [profile.body.data.purchase_history.order_count, profile.body.data.purchase_history.total_spent],
      [1, 40],
    )
    const orders = await shop.api.get(`/api/v1/customers/${c.id}/orders`)
    assert.deepEqual(
      orders.body.data.map((o: { id: string }) => o.id),
      [order.id],
    )
    assert.equal((await shop.api.get('/api/v1/customers/cus_missing/orders')).status, 404)
  })

  it('still answers the deprecated rewards endpoint with Deprecation, Sunset and a Link to the loyalty member', async () => {
    const c = (await shop.api.post('/api/v1/customers', { email: 'old@example.test', loyalty_member_id: 'LM-9' })).body
      .data
    const res = await shop.api.get(`/api/v1/customers/${c.id}/rewards`)
    assert.equal(res.status, 200)
    assert.match(String(res.headers.deprecation), /^@\d+$/)
    assert.ok(res.headers.sunset)
    assert.equal(res.headers.link, `</api/v1/loyalty/members/${c.id}>; rel="successor-version"`)
    assert.equal(res.body.data.loyalty_member_id, 'LM-9')
  })

  it('hides customers of another merchant behind a 404', async () => {
    const c = (await shop.api.post('/api/v1/customers', { email: 'private@example.test' })).body.data
    assert.equal((await other.api.get(`/api/v1/customers/${c.id}`)).status, 404)
    assert.equal((await other.api.patch(`/api/v1/customers/${c.id}`, { first_name: 'X' })).status, 404)
    assert.equal((await other.api.get(`/api/v1/customers/${c.id}/orders`)).status, 404)
    assert.equal((await other.api.get(`/api/v1/customers/${c.id}/rewards`)).status, 404)
    assert.equal((await other.api.get('/api/v1/customers?q=private')).body.data.length, 0)
    // The same e-mail at another merchant is another customer.
    assert.equal((await other.api.post('/api/v1/customers', { email: 'private@example.test' })).status, 201)
  })
})
