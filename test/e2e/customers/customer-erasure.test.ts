import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { WebhookWorker } from '../../../src/modules/webhooks/index.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { HttpsReceiver } from '../../support/https-receiver.ts'
import { invitedAndSignedIn } from '../../support/people.ts'
import { payInFull } from '../../support/shop.ts'
import { RECEIVER_ENV, startTestWorker, subscriber } from '../../support/webhook-fixtures.ts'

describe('a customer erased on request', () => {
  let app: TestApp
  let receiver: HttpsReceiver
  let worker: WebhookWorker

  before(async () => {
    receiver = await new HttpsReceiver().start()
    app = await startTestApp(RECEIVER_ENV)
    worker = startTestWorker(app)
  })
  after(async () => {
    await worker.stop()
    await receiver.close()
    await app.close()
  })

  it('blanks every personal field, in the profile, the events and the webhook deliveries; orders keep the amounts', async () => {
    const { merchant, api } = await subscriber(app, receiver, '/customers', ['customer.created', 'customer.updated'])
    const customer = (
      await api.post('/api/v1/customers', {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.org',
        phone: '+44 20 7946 0000',
        birthday: '1815-12-10',
        note: 'likes oat milk',
        preferences: { milk: 'oat' },
      })
    ).body.data
    await receiver.waitFor(() => receiver.on('/customers').length === 1)
    const location = (await api.post('/api/v1/locations', { name: 'Cafe' })).body.data.id
    const product = (await api.post('/api/v1/products', { name: 'Tea', sku: 'TEA', base_price: 3 })).body.data.id
    await api.post('/api/v1/inventory/adjust', {
      product_id: product,
      location_id: location,
      quantity: 5,
      reason: 'received',
    })
    const order = (
      await api.post('/api/v1/orders', {
        location_id: location,
        customer_id: customer.id,
        lines: [{ product_id: product, quantity: 2 }],
      })
    ).body.data
    await payInFull(api, order.id, order.total)

    // Staff may not erase; an owner may, and a second erasure changes nothing more.
    const staff = await invitedAndSignedIn(app, api, 'staff')
    assert.equal((await staff.api.delete(`/api/v1/customers/${customer.id}`)).status, 403)
    assert.equal((await api.delete(`/api/v1/customers/${customer.id}`)).status, 204)
    assert.equal((await api.delete(`/api/v1/customers/${customer.id}`)).status, 204)
    assert.equal((await api.delete('/api/v1/customers/cus_nobody')).status, 404)

    const profile = (await api.get(`/api/v1/customers/${customer.id}`)).body.data
    assert.deepEqual(
      [
        profile.first_name,
        profile.last_name,
        profile.email,
        profile.phone,
        profile.birthday,
        profile.note,
        profile.preferences,
      ],
      ['', '', null, null, null, '', {}],
    )
    assert.ok(profile.erased_at)
    const kept = (await api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.deepEqual([kept.customer_id, kept.total, kept.amount_paid], [customer.id, order.total, order.total])
    // The address is free again, and finds nobody.
    assert.equal((await api.get('/api/v1/customers?q=Lovelace')).body.data.length, 0)

    const events = (await api.get('/api/v1/events?type=customer.created')).body.data
    assert.deepEqual(events[0].data, { id: customer.id, erased: true })
    const deliveries = await app.runtime.database.read(merchant.orgId, (q) =>
      q.query<{ payload: string }>('SELECT payload FROM webhook_deliveries WHERE org_id = $1', [merchant.orgId]),
    )
    assert.ok(deliveries.rows.length >= 1)
    for (const { payload } of deliveries.rows) assert.ok(!payload.includes('Lovelace') && !payload.includes('ada@'))
    const audit = (await api.get(`/api/v1/audit-log?record_id=${customer.id}`)).body.data
    assert.deepEqual(
      audit.map((e: { action: string }) => e.action),
      ['customer.erased', 'customer.erased'],
    )
    assert.ok(!JSON.stringify(audit).includes('Lovelace'))
    // The erasure is told to subscribers as an update carrying nothing personal.
    await receiver.waitFor(() => receiver.on('/customers').some((r) => String(r.body).includes('"erased_at"')))
  })
})
