import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { purgeExpiredEvents } from '../../../src/modules/events/index.ts'
import { firstIdAt } from '../../../src/platform/crypto/ids.ts'
import { eventually } from '../../support/eventually.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { emitAs, RECEIVER_ENV } from '../../support/webhook-fixtures.ts'

const DAY_MS = 86_400_000

/** The outbox keeps an event for the 30 days the events API serves it, then the retention job deletes it. */
describe('event retention', () => {
  let app: TestApp
  let merchant: Merchant
  let ageStep = 0

  /** Commits an event made `days` ago, as the outbox would have written it then. */
  async function eventFrom(owner: Merchant, days: number): Promise<string> {
    // Each event a millisecond apart, so the ids (ULIDs of their time) differ.
    const id = firstIdAt('evt', Date.now() - days * DAY_MS - ++ageStep)
    await app.runtime.database.transaction(owner.orgId, (q) =>
      q.query(
        `INSERT INTO events (id, org_id, type, data, created_at)
         VALUES ($1, $2, 'customer.created', '{}', now() - make_interval(days => $3))`,
        [id, owner.orgId, days],
      ),
    )
    return id
  }

  const retained = async (owner: Merchant, ids: string[]) =>
    app.runtime.database.read(owner.orgId, async (q) => {
      const { rows } = await q.query<{ id: string }>('SELECT id FROM events WHERE id = ANY($1)', [ids])
      return new Set(rows.map((r) => r.id))
    })

  before(async () => {
    // Loopback endpoints allowed, so an endpoint can be registered without a resolvable host name.
    app = await startTestApp(RECEIVER_ENV)
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('deletes events older than 30 days and keeps what the events API still serves', async () => {
    const old = await eventFrom(merchant, 31)
    const recent = await eventFrom(merchant, 29)
    const fresh = await emitAs(app, merchant, 'customer.created', { id: 'cus_fresh' })

    assert.ok((await purgeExpiredEvents(app.runtime.database, app.runtime.config.eventRetentionDays)) >= 1)

    const left = await retained(merchant, [old, recent, fresh])
    assert.equal(left.has(old), false)
    assert.equal(left.has(recent), true)
    assert.equal(left.has(fresh), true)
    await eventually(async () => {
      const listed = await clientFor(app.api, merchant.token).get('/api/v1/events?limit=100')
      assert.equal(listed.status, 200)
      const ids = listed.body.data.map((e: { id: string }) => e.id)
      assert.ok(ids.includes(recent) && ids.includes(fresh))
    })
  })

  it('deletes a batch at a time until none is left', async () => {
    const olds = [await eventFrom(merchant, 40), await eventFrom(merchant, 45), await eventFrom(merchant, 50)]
    assert.equal(
      await purgeExpiredEvents(app.runtime.database, app.runtime.config.eventRetentionDays, Date.now(), 2),
      2,
    )
    assert.equal(
      await purgeExpiredEvents(app.runtime.database, app.runtime.config.eventRetentionDays, Date.now(), 2),
      1,
    )
    assert.equal(
      await purgeExpiredEvents(app.runtime.database, app.runtime.config.eventRetentionDays, Date.now(), 2),
      0,
    )
    assert.equal((await retained(merchant, olds)).size, 0)
  })

  it('keeps an old event that is still waiting for the webhook relay', async () => {
    const subscriber = await createMerchant(app)
    const api = clientFor(app.api, subscriber.token)
    const integration = (await api.post('/api/v1/integrations', { name: 'Receiver', type: 'custom' })).body.data
    const hook = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: 'https://127.0.0.1:9/in',
      events: ['customer.created'],
    })
    assert.equal(hook.status, 201, JSON.stringify(hook.body))
    // No worker runs in this app, so the relay queue still holds the event.
    const waiting = await eventFrom(subscriber, 35)
    const queued = await app.runtime.database.read(subscriber.orgId, (q) =>
      q.query('SELECT 1 FROM webhook_relay_queue WHERE event_id = $1', [waiting]),
    )
    assert.equal(queued.rows.length, 1)

    await purgeExpiredEvents(app.runtime.database, app.runtime.config.eventRetentionDays)

    assert.equal((await retained(subscriber, [waiting])).has(waiting), true)
  })
})
