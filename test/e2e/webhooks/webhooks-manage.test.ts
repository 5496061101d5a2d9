import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import type { WebhookWorker } from '../../../src/modules/webhooks/index.ts'
import { eventually } from '../../support/eventually.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { HttpsReceiver } from '../../support/https-receiver.ts'
import {
  emitAs,
  RECEIVER_ENV,
  sleep,
  startTestWorker,
  subscriber as subscribe,
} from '../../support/webhook-fixtures.ts'

describe('managing webhook endpoints and integrations', () => {
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

  const subscriber = (path: string, events: string[]) =>
    subscribe<{ id: string; version: number }>(app, receiver, path, events)
  const emit = (m: Merchant, type: string, data: object) => emitAs(app, m, type, data)

  it('changes the url, events and description of an endpoint, and delivers to the new url', async () => {
    const { merchant, api, integration, hook } = await subscriber('/before', ['order.created'])
    const path = `/api/v1/integrations/${integration.id}/webhooks/${hook.id}`
    const res = await api.patch(path, {
      url: receiver.url('/after'),
      events: ['payment.approved'],
      description: '  Accounting sync  ',
      version: hook.version,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.data.url, receiver.url('/after'))
    assert.deepEqual(res.body.data.events, ['payment.approved'])
    assert.equal(res.body.data.description, 'Accounting sync')
    assert.equal(res.body.data.version, hook.version + 1)
    assert.equal(res.body.data.secret, undefined)

    await emit(merchant, 'order.created', { id: 'ord_1' })
    await emit(merchant, 'payment.captured', { id: 'pay_1' })
    await receiver.waitFor(() => receiver.on('/after').length === 1)
    await sleep(150)
    assert.equal(receiver.on('/before').length, 0)
    assert.equal(JSON.parse(receiver.on('/after')[0].body).event, 'payment.approved')
  })

  it('refuses a stale version with 409 and honours If-Match', async () => {
    const { api, integration, hook } = await subscriber('/versions', ['order.created'])
    const path = `/api/v1/integrations/${integration.id}/webhooks/${hook.id}`
    assert.equal((await api.patch(path, { description: 'one' }, { 'if-match': `"${hook.version}"` })).status, 200)
    const stale = await api.patch(path, { description: 'two' }, { 'if-match': `"${hook.version}"` })
    assert.equal(stale.status, 409)
    assert.equal((await api.get(path)).body.data.description, 'one')
    const current = await api.patch(path, { description: 'two', version: hook.version + 1 })
    assert.equal(current.status, 200)
    assert.equal(current.body.data.version, hook.version + 2)
  })

  it('refuses bad changes with 422 naming the field and changes nothing', async () => {
    const { api, integration, hook } = await subscriber('/bad', ['order.created'])
    const path = `/api/v1/integrations/${integration.id}/webhooks/${hook.id}`
    const cases: [object, string][] = [
      [{ url: 'http://example.com/hook' }, 'url'],
      [{ url: 'https://10.0.0.1/hook' }, 'url'],
      [{ events: ['order.exploded'] }, 'events.0'],
      [{ events: ['payment.approved', 'payment.captured'] }, 'events.1'],
      [{}, 'body'],
      [{ description: 'x', secret: 'whsec_mine' }, 'secret'],
    ]
    for (const [body, field] of cases) {
      const res = await api.patch(path, body)
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`)
      assert.ok(
        JSON.stringify(res.body.errors ?? res.body).includes(field),
        `${field} named in ${JSON.stringify(res.body)}`,
      )
    }
    const after = (await api.get(path)).body.data
    assert.equal(after.url, receiver.url('/bad'))
    assert.deepEqual(after.events, ['order.created'])
    assert.equal(after.version, hook.version)
  })

  it('deletes an endpoint: nothing more is delivered, its log stays, and it is gone from the API', async () => {
    receiver.script('/deleted', [{ status: 200 }], 'hang')
    const { merchant, api, integration, hook } = await subscriber('/deleted', ['order.created'])
    await emit(merchant, 'order.created', { id: 'ord_kept' })
    await receiver.waitFor(() => receiver.on('/deleted').length === 1)
    await sleep(100)
    const path = `/api/v1/integrations/${integration.id}/webhooks/${hook.id}`
    const res = await api.delete(path)
    assert.equal(res.status, 204)
    await emit(merchant, 'order.created', { id: 'ord_dropped' })
    await sleep(400)
    assert.equal(receiver.on('/deleted').length, 1)
    assert.equal((await api.get(path)).status, 404)
    assert.equal((await api.delete(path)).status, 404)
    assert.equal((await api.patch(path, { description: 'x' })).status, 404)
    assert.equal((await api.post(`${path}/rotate-secret`)).status, 404)
    assert.equal((await api.post(`/api/v1/webhooks/endpoints/${hook.id}/enable`)).status, 404)
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}/webhooks`)).body.data.length, 0)
    assert.equal((await api.get('/api/v1/webhooks/endpoints')).body.data.length, 0)
    const log = await api.get(`/api/v1/webhooks/deliveries?webhook_id=${hook.id}`)
    assert.equal(log.body.data.length, 1)
    assert.equal(log.body.data[0].status_code, 200)
  })

  it('ends the queued deliveries of a deleted endpoint instead of sending them', async () => {
    receiver.script('/queued', [], { status: 500 })
    const { merchant, api, integration, hook } = await subscriber('/queued', ['order.created'])
    await worker.stop()
    try {
      await emit(merchant, 'order.created', { id: 'ord_q' })
      // A test delivery is queued at once (no relay), so the delete finds a pending delivery to end.
      const test = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
        event: 'order.created',
        webhookId: hook.id,
      })
      assert.equal(test.status, 202)
      assert.equal(test.body.data.status, 'pending')
      assert.equal((await api.delete(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}`)).status, 204)
    } finally {
      worker = startTestWorker(app)
    }
    await sleep(400)
    assert.equal(receiver.on('/queued').length, 0)
    assert.equal((await api.get('/api/v1/webhooks/failed')).body.data.length, 0)
  })

  it('uninstalls an integration: its endpoints stop receiving and it leaves the list', async () => {
    const { merchant, api, integration, hook } = await subscriber('/uninstalled', ['customer.created'])
    const second = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: receiver.url('/uninstalled-2'),
      events: ['customer.created'],
    })
    assert.equal(second.status, 201)
    const other = (await api.post('/api/v1/integrations', { name: 'Kept', type: 'custom' })).body.data
    assert.equal((await api.delete(`/api/v1/integrations/${integration.id}`)).status, 204)
    await emit(merchant, 'customer.created', { id: 'cus_1' })
    await sleep(400)
    assert.equal(receiver.on('/uninstalled').length, 0)
    assert.equal(receiver.on('/uninstalled-2').length, 0)
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}`)).status, 404)
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}/webhooks`)).status, 404)
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}`)).status, 404)
    assert.equal((await api.delete(`/api/v1/integrations/${integration.id}`)).status, 404)
    assert.deepEqual(
      (await api.get('/api/v1/integrations')).body.data.map((i: { id: string }) => i.id),
      [other.id],
    )
    assert.equal((await api.get('/api/v1/webhooks/endpoints')).body.data.length, 0)
  })

  it("answers 404 to another merchant's endpoint and integration and changes nothing", async () => {
    const { api, integration, hook } = await subscriber('/mine', ['order.created'])
    const intruder = clientFor(app.api, (await createMerchant(app)).token)
    const path = `/api/v1/integrations/${integration.id}/webhooks/${hook.id}`
    assert.equal((await intruder.patch(path, { description: 'pwned' })).status, 404)
    assert.equal((await intruder.delete(path)).status, 404)
    assert.equal((await intruder.delete(`/api/v1/integrations/${integration.id}`)).status, 404)
    const mine = (await api.get(path)).body.data
    assert.equal(mine.description, '')
    assert.equal(mine.version, hook.version)
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}`)).status, 200)
  })

  it('needs the webhooks:write scope to change or delete', async () => {
    const { integration, hook } = await subscriber('/scoped', ['order.created'])
    const anonymous = clientFor(app.api)
    const path = `/api/v1/integrations/${integration.id}/webhooks/${hook.id}`
    assert.equal((await anonymous.patch(path, { description: 'x' })).status, 401)
    assert.equal((await anonymous.delete(path)).status, 401)
    assert.equal((await anonymous.delete(`/api/v1/integrations/${integration.id}`)).status, 401)
  })

  it('wakes a worker at once through LISTEN/NOTIFY, long before its next poll', async () => {
    await worker.stop()
    // The owner sees every session (the app's role only its own): the new worker's LISTEN is in place before the
    // event, so that the notification, not the worker's wake-up once it listens, is what brings it out.
    const owner = new pg.Client({ connectionString: app.runtime.ownerUrl })
    await owner.connect()
    const since = (await owner.query<{ now: Date }>('SELECT now()')).rows[0].now
    // A two-minute poll: only the notification can bring the event out well before it.
    worker = startTestWorker(app, { pollMs: 120_000 })
    const { merchant } = await subscriber('/notified', ['order.created'])
    try {
      await eventually(async () => {
        const listening = await owner.query(
          `SELECT 1 FROM pg_stat_activity
           WHERE datname = current_database() AND query = 'LISTEN webhook_relay' AND backend_start >= $1`,
          [since],
        )
        assert.equal(listening.rowCount, 1)
      })
    } finally {
      await owner.end()
    }
    await emit(merchant, 'order.created', { id: 'ord_fast' })
    // Within half the poll: the notification woke the worker.
    await receiver.waitFor(() => receiver.on('/notified').length === 1, 60_000)
  })
})
