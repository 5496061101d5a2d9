import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { verify as verifyServiceSignature } from '@octokit/webhooks-methods'
import { Webhook } from 'standardwebhooks'
import { AddressPolicy } from '../../../src/modules/webhooks/address-policy.ts'
import type { WebhookWorker } from '../../../src/modules/webhooks/index.ts'
import { WebhookSender } from '../../../src/modules/webhooks/sender.ts'
import { Database } from '../../../src/platform/db/database.ts'
import { eventually } from '../../support/eventually.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { HttpsReceiver, type Received, testPki } from '../../support/https-receiver.ts'
import {
  emitAs,
  RECEIVER_ENV,
  sleep,
  startTestWorker,
  subscriber as subscribe,
} from '../../support/webhook-fixtures.ts'

/** GitHub-style verifiers take one `sha256=` value; during a rotation the header carries one per secret. */
async function serviceSignatureValid(secret: string, r: Received): Promise<boolean> {
  const values = String(r.headers['x-service-signature']).split(',')
  const results = await Promise.all(values.map((v) => verifyServiceSignature(secret, r.body, v)))
  return results.includes(true)
}

function standardWebhookValid(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>)
    return true
  } catch {
    return false
  }
}

describe('webhook delivery from the outbox', () => {
  let app: TestApp
  let receiver: HttpsReceiver
  let worker: WebhookWorker
  const startWorker = (options: { database?: Database } = {}) => startTestWorker(app, { random: () => 0.5, ...options })

  before(async () => {
    receiver = await new HttpsReceiver().start()
    app = await startTestApp({
      ...RECEIVER_ENV,
      WEBHOOK_RETRY_DELAYS: '100ms,200ms',
      // Long enough for a loaded CI machine; the hanging receiver test waits this once.
      WEBHOOK_TIMEOUT_MS: '1500',
    })
    worker = startWorker()
  })
  after(async () => {
    await worker.stop()
    await receiver.close()
    await app.close()
  })

  const subscriber = (path: string, events: string[]) =>
    subscribe<{ id: string; secret: string }>(app, receiver, path, events)
  const emit = (m: Merchant, type: string, data: object) => emitAs(app, m, type, data)

  it('delivers a committed event once, in the SPEC envelope, verifiably signed both ways', async () => {
    const { merchant, hook, api } = await subscriber('/signed', ['order.created'])
    const eventId = await emit(merchant, 'order.created', { id: 'ord_1', total: 12.5 })
    await emit(merchant, 'customer.created', { id: 'cus_1' }) // not subscribed
    await receiver.waitFor(() => receiver.on('/signed').length === 1)
    await sleep(150)
    assert.equal(receiver.on('/signed').length, 1)
    const [r] = receiver.on('/signed')
    const envelope = JSON.parse(r.body)
    assert.deepEqual(Object.keys(envelope), ['id', 'event', 'orgId', 'timestamp', 'apiVersion', 'data'])
    assert.equal(envelope.event, 'order.created')
    assert.equal(envelope.orgId, merchant.orgId)
    assert.equal(envelope.apiVersion, '2024-09-15')
    assert.match(envelope.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    assert.deepEqual(envelope.data, { id: 'ord_1', total: 12.5 })
    // The envelope names the event as GET /events does; webhook-id is the delivery's own id.
    assert.equal(envelope.id, eventId)
    assert.match(envelope.id, /^evt_/)
    assert.match(String(r.headers['webhook-id']), /^msg_/)
    assert.equal(r.headers['content-type'], 'application/json')
    assert.ok(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000) < 10)
    assert.equal(await serviceSignatureValid(hook.secret, r), true)
    assert.equal(standardWebhookValid(hook.secret, r), true)
    assert.equal(await serviceSignatureValid('whsec_wrong', r), false)

    // The worker logs the attempt after the receiver has answered.
    const log = await eventually(async () => {
      const res = await api.get(`/api/v1/webhooks/deliveries?webhook_id=${hook.id}`)
      assert.equal(res.status, 200)
      assert.equal(res.body.data.length, 1)
      return res
    })
    assert.equal(log.body.data[0].delivery_id, r.headers['webhook-id'])
    assert.equal(log.body.data[0].event_id, eventId)
    const logged = await api.get(`/api/v1/events/${envelope.id}`)
    assert.equal(logged.status, 200)
    assert.equal(logged.body.data.id, envelope.id)
    assert.equal(log.body.data[0].status_code, 200)
    assert.equal(log.body.data[0].succeeded, true)
    assert.equal(typeof log.body.data[0].latency_ms, 'number')
  })

  it('delivers an aliased event under the name the subscriber chose', async () => {
    const { merchant } = await subscriber('/alias', ['payment.approved', 'inventory.out_of_stock'])
    await emit(merchant, 'payment.captured', { id: 'pay_1' })
    await emit(merchant, 'inventory.stockout', { sku: 'A' })
    await receiver.waitFor(() => receiver.on('/alias').length === 2)
    const names = receiver
      .on('/alias')
      .map((r) => JSON.parse(r.body).event)
      .sort()
    assert.deepEqual(names, ['inventory.out_of_stock', 'payment.approved'])
  })

  it('retries on the configured schedule with the same id and the same bytes until the endpoint recovers', async () => {
    receiver.script('/flaky', [{ status: 500 }, { status: 503 }])
    const { merchant, api, hook } = await subscriber('/flaky', ['order.completed'])
    await emit(merchant, 'order.completed', { id: 'ord_2' })
    await receiver.waitFor(() => receiver.on('/flaky').length === 3)
    const [a, b, c] = receiver.on('/flaky')
    assert.equal(new Set([a.headers['webhook-id'], b.headers['webhook-id'], c.headers['webhook-id']]).size, 1)
    assert.equal(a.body, b.body)
    assert.equal(b.body, c.body)
    // 100 ms then 200 ms, each ±20 % jitter (pinned to the middle here) plus polling.
    assert.ok(b.at - a.at >= 90, `first retry after ${b.at - a.at} ms`)
    assert.ok(c.at - b.at >= 190, `second retry after ${c.at - b.at} ms`)
    const log = await eventually(async () => {
      const res = await api.get(`/api/v1/webhooks/deliveries?webhook_id=${hook.id}`)
      assert.deepEqual(
        res.body.data.map((x: { status_code: number }) => x.status_code),
        [200, 503, 500],
      )
      return res
    })
    assert.deepEqual(
      log.body.data.map((x: { attempt: number }) => x.attempt),
      [3, 2, 1],
    )
    assert.match(log.body.data[1].error, /503/)
    const failedOnly = await api.get(`/api/v1/webhooks/deliveries?webhook_id=${hook.id}&succeeded=false&limit=1`)
    assert.equal(failedOnly.body.data.length, 1)
    assert.equal(failedOnly.body.pagination.hasMore, true)
    const next = await api.get(
      `/api/v1/webhooks/deliveries?webhook_id=${hook.id}&succeeded=false&limit=1&cursor=${failedOnly.body.pagination.nextCursor}`,
    )
    assert.equal(next.body.data[0].status_code, 500)
    assert.equal((await api.get('/api/v1/webhooks/failed')).body.data.length, 0)
  })

  it('counts redirects and timeouts as failures, keeps the failed event and replays it with the same id', async () => {
    receiver.script('/broken', [{ status: 302, location: 'https://localhost/elsewhere' }, 'hang', { status: 500 }])
    const { merchant, api, hook } = await subscriber('/broken', ['order.refunded'])
    type Health = { failing_since: string | null; events_pending: number; events_failed: number }
    const health = async () =>
      ((await api.get('/api/v1/webhooks/endpoints')).body.data as ({ id: string } & Health)[]).find(
        (e) => e.id === hook.id,
      ) as Health
    assert.deepEqual(await health(), { ...(await health()), failing_since: null, events_pending: 0, events_failed: 0 })
    const beforeEvent = Date.now()
    await emit(merchant, 'order.refunded', { id: 'ord_3' })
    await receiver.waitFor(() => receiver.on('/broken').length === 3)
    let failed: { body: { data: { id: string; attempts: number; replayable_until: string }[] } } = {
      body: { data: [] },
    }
    for (let i = 0; i < 200 && failed.body.data.length === 0; i++) {
      await sleep(50)
      failed = await api.get('/api/v1/webhooks/failed')
    }
    assert.equal(failed.body.data.length, 1)
    const delivery = failed.body.data[0]
    assert.equal(delivery.attempts, 3)
    // Not answering since its first failed attempt, with the failed event waiting for a replay.
    const down = await health()
    assert.deepEqual([down.events_pending, down.events_failed], [0, 1])
    const log1 = (await api.get(`/api/v1/webhooks/deliveries?delivery_id=${delivery.id}`)).body.data
    assert.equal(down.failing_since && Date.parse(down.failing_since) >= beforeEvent - 1000, true)
    assert.ok(Date.parse(String(down.failing_since)) <= Date.parse(log1.at(-1).created_at))
    const window = Date.parse(delivery.replayable_until) - Date.now()
    assert.ok(window > 71.9 * 3_600_000 && window <= 72 * 3_600_000)
    const log = (await api.get(`/api/v1/webhooks/deliveries?delivery_id=${delivery.id}`)).body.data
    assert.deepEqual(
      log.map((x: { status_code: number | null }) => x.status_code),
      [500, null, 302],
    )
    assert.match(log[1].error, /no answer within 1500 ms/)
    assert.match(log[2].error, /redirect/)
    assert.equal(receiver.on('/elsewhere').length, 0)

    const replay = await api.post(`/api/v1/webhooks/failed/${delivery.id}/replay`)
    assert.equal(replay.status, 202)
    assert.equal(replay.body.data.id, delivery.id)
    await receiver.waitFor(() => receiver.on('/broken').length === 4)
    const requests = receiver.on('/broken')
    assert.equal(requests[3].headers['webhook-id'], delivery.id)
    assert.equal(requests[3].body, requests[0].body)
    await eventually(async () => assert.equal((await api.get('/api/v1/webhooks/failed')).body.data.length, 0))
    // Delivered: it answers again and nothing waits.
    await eventually(async () =>
      assert.deepEqual(await health(), {
        ...(await health()),
        failing_since: null,
        events_pending: 0,
        events_failed: 0,
      }),
    )
    const again = await api.post(`/api/v1/webhooks/failed/${delivery.id}/replay`)
    assert.equal(again.status, 409)
    assert.equal((await api.post('/api/v1/webhooks/failed/msg_unknown/replay')).status, 404)
  })

  it('suspends an endpoint after 10 failed events, holds its deliveries, and resumes once re-enabled', async () => {
    receiver.script('/down', [], { status: 500 })
    const { merchant, api, hook } = await subscriber('/down', ['customer.updated'])
    for (let i = 0; i < 10; i++) await emit(merchant, 'customer.updated', { id: `cus_${i}` })
    let endpoint:
      | { status: string; suspended_at: string | null; suspension_reason: string | null; consecutive_failures: number }
      | undefined
    for (let i = 0; i < 300 && endpoint?.status !== 'suspended'; i++) {
      await sleep(50)
      endpoint = (await api.get('/api/v1/webhooks/endpoints?status=suspended')).body.data[0]
    }
    assert.equal(endpoint?.status, 'suspended')
    assert.ok(endpoint?.suspended_at)
    assert.match(String(endpoint?.suspension_reason), /10 consecutive events failed/)
    assert.equal(endpoint?.consecutive_failures, 10)
    assert.equal(receiver.on('/down').length, 30)
    assert.equal((await api.get(`/api/v1/webhooks/failed?webhook_id=${hook.id}`)).body.data.length, 10)

    // Suspended: new events are not sent, replays are refused or skipped.
    await emit(merchant, 'customer.updated', { id: 'cus_late' })
    await sleep(200)
    assert.equal(receiver.on('/down').length, 30)
    const failed = (await api.get('/api/v1/webhooks/failed')).body.data
    assert.equal((await api.post(`/api/v1/webhooks/failed/${failed[0].id}/replay`)).status, 409)
    assert.equal((await api.post('/api/v1/webhooks/failed/replay', {})).body.data.replayed, 0)

    receiver.script('/down', [], { status: 204 })
    const enabled = await api.post(`/api/v1/webhooks/endpoints/${hook.id}/enable`)
    assert.equal(enabled.status, 200)
    assert.equal(enabled.body.data.status, 'active')
    assert.equal(enabled.body.data.consecutive_failures, 0)
    assert.equal(enabled.body.data.suspended_at, null)
    const bulk = await api.post('/api/v1/webhooks/failed/replay', { webhook_id: hook.id })
    assert.equal(bulk.status, 202)
    assert.equal(bulk.body.data.replayed, 10)
    await receiver.waitFor(() => receiver.on('/down').length === 40)
    const replayedIds = new Set(
      receiver
        .on('/down')
        .slice(30)
        .map((r) => r.headers['webhook-id']),
    )
    assert.deepEqual(replayedIds, new Set(failed.map((f: { id: string }) => f.id)))
    await eventually(async () => assert.equal((await api.get('/api/v1/webhooks/failed')).body.data.length, 0))
  })

  it('signs with both secrets for 24 hours after a rotation, verifiable with either', async () => {
    const { merchant, api, integration, hook } = await subscriber('/rotated', ['gift_card.issued'])
    const rotated = (await api.post(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}/rotate-secret`)).body
      .data
    await emit(merchant, 'gift_card.issued', { id: 'gc_1' })
    await receiver.waitFor(() => receiver.on('/rotated').length === 1)
    const [r] = receiver.on('/rotated')
    assert.equal(String(r.headers['x-service-signature']).split(',').length, 2)
    assert.equal(String(r.headers['webhook-signature']).split(' ').length, 2)
    for (const secret of [rotated.secret, hook.secret]) {
      assert.equal(await serviceSignatureValid(secret, r), true)
      assert.equal(standardWebhookValid(secret, r), true)
    }
    assert.match(String(r.headers['x-service-signature']), /^sha256=[0-9a-f]{64},sha256=[0-9a-f]{64}$/)
  })

  it('sends a signed synthetic payload from the test endpoint', async () => {
    const { api, integration, hook } = await subscriber('/test-hook', ['order.created'])
    const res = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
      event: 'layby.created',
      webhookId: hook.id,
    })
    assert.equal(res.status, 202)
    await receiver.waitFor(() => receiver.on('/test-hook').length === 1)
    const [r] = receiver.on('/test-hook')
    const envelope = JSON.parse(r.body)
    assert.equal(envelope.id, res.body.data.id)
    assert.equal(envelope.event, 'layby.created')
    assert.equal(envelope.data.test, true)
    assert.equal(await serviceSignatureValid(hook.secret, r), true)
    assert.equal(standardWebhookValid(hook.secret, r), true)

    // A ping the receiver refuses says nothing of its health.
    receiver.script('/test-hook', [{ status: 500 }])
    const refused = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
      event: 'order.created',
      webhookId: hook.id,
    })
    assert.equal(refused.status, 202)
    await eventually(async () => {
      const [attempt] = (await api.get(`/api/v1/webhooks/deliveries?delivery_id=${refused.body.data.id}`)).body.data
      assert.equal(attempt?.status_code, 500)
    })
    const [endpoint] = (await api.get('/api/v1/webhooks/endpoints')).body.data
    assert.deepEqual([endpoint.failing_since, endpoint.events_pending, endpoint.events_failed], [null, 0, 0])
  })

  it('delivers an event committed while no worker ran once a worker starts', async () => {
    const { merchant } = await subscriber('/crash', ['order.created'])
    await worker.stop()
    await emit(merchant, 'order.created', { id: 'ord_crash' })
    await sleep(200)
    assert.equal(receiver.on('/crash').length, 0)
    worker = startWorker()
    await receiver.waitFor(() => receiver.on('/crash').length === 1)
    await sleep(200)
    assert.equal(receiver.on('/crash').length, 1)
    assert.equal(JSON.parse(receiver.on('/crash')[0].body).data.id, 'ord_crash')
  })

  it('never sends the same attempt twice with two workers running', async () => {
    const { merchant, api, hook } = await subscriber('/parallel', ['order.created'])
    const second = new Database({ connectionString: app.runtime.ownerUrl, max: 4 })
    const other = startWorker({ database: second })
    try {
      for (let i = 0; i < 40; i++) await emit(merchant, 'order.created', { id: `ord_p${i}` })
      await receiver.waitFor(
        () => new Set(receiver.on('/parallel').map((r) => r.headers['webhook-id'])).size === 40,
        20_000,
      )
      await sleep(300)
      // Each request the receiver saw is exactly one logged attempt, and no attempt number repeats per delivery.
      const log = await eventually(async () => {
        const rows = (await api.get(`/api/v1/webhooks/deliveries?webhook_id=${hook.id}&limit=200`)).body.data as {
          delivery_id: string
          attempt: number
        }[]
        assert.equal(rows.length, receiver.on('/parallel').length)
        return rows
      })
      const attempts = log.map((a) => `${a.delivery_id}#${a.attempt}`)
      assert.equal(new Set(attempts).size, attempts.length)
      assert.equal(new Set(log.map((a) => a.delivery_id)).size, 40)
    } finally {
      await other.stop()
      await second.close()
    }
  })

  it('verifies TLS and checks the connected address again at delivery (DNS rebinding)', async () => {
    const strict = new WebhookSender({ policy: new AddressPolicy([]), timeoutMs: 1000, ca: testPki().ca })
    const byName = await strict.send(receiver.url('/rebound'), '{}', {})
    assert.equal(byName.succeeded, false)
    assert.match(String(byName.error), /no permitted address/)
    const byLiteral = await strict.send(`https://127.0.0.1:${receiver.port}/rebound`, '{}', {})
    assert.match(String(byLiteral.error), /not a permitted address/)
    strict.close()
    const untrusting = new WebhookSender({ policy: new AddressPolicy(['127.0.0.1/32']), timeoutMs: 1000 })
    const tls = await untrusting.send(receiver.url('/rebound'), '{}', {})
    assert.equal(tls.succeeded, false)
    assert.match(String(tls.error), /certificate/i)
    untrusting.close()
    assert.equal(receiver.on('/rebound').length, 0)
  })

  it("keeps each org's delivery log and failed events to itself", async () => {
    const { api, hook } = await subscriber('/private', ['order.created'])
    const stranger = clientFor(app.api, (await createMerchant(app)).token)
    await api.post(`/api/v1/integrations/${(await api.get('/api/v1/integrations')).body.data[0].id}/webhooks/test`, {
      event: 'order.created',
      webhookId: hook.id,
    })
    await receiver.waitFor(() => receiver.on('/private').length === 1)
    assert.equal((await stranger.get('/api/v1/webhooks/deliveries')).body.data.length, 0)
    assert.equal((await stranger.get(`/api/v1/webhooks/deliveries?webhook_id=${hook.id}`)).body.data.length, 0)
    assert.equal((await stranger.get('/api/v1/webhooks/failed')).body.data.length, 0)
    assert.equal((await stranger.post(`/api/v1/webhooks/endpoints/${hook.id}/enable`)).status, 404)
    assert.equal((await stranger.post('/api/v1/webhooks/failed/replay', { webhook_id: hook.id })).status, 404)
    const bad = await api.post('/api/v1/webhooks/failed/replay', { webhook: hook.id })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.errors[0].field, 'webhook')
  })
})
