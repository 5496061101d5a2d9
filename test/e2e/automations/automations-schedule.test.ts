import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { type AutomationWorker, startAutomationWorker } from '../../../src/modules/automations/index.ts'
import type { Mailer, MailMessage } from '../../../src/platform/mail/index.ts'
import { eventually } from '../../support/eventually.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'
import { created } from '../../support/two-orgs.ts'

class KeptMailer implements Mailer {
  readonly channel = 'email' as const
  readonly sent: MailMessage[] = []
  async send(message: MailMessage) {
    this.sent.push(message)
  }
  close() {}
}

describe('schedule triggers', () => {
  let app: TestApp
  let shop: Shop
  let worker: AutomationWorker
  const mailer = new KeptMailer()
  // The worker's clock: the test moves it; the worker looks at the schedules on every tick.
  let clock = new Date('2026-03-01T10:58:00Z')

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    worker = startAutomationWorker(app.runtime, app.services, {
      pollMs: 20,
      scheduleEveryMs: 0,
      now: () => clock,
      mailer,
    })
    await worker.launched
  })

  after(async () => {
    await worker?.stop()
    await app?.close()
  })

  /** Lets the worker take a few looks at the current clock. */
  const settle = () => sleep(400)
  const runs = async (id: string) => (await shop.api.get(`/api/v1/automations/${id}/runs`)).body.data

  test("a cron fires at midnight in its location's time zone, once per slot, not at UTC midnight", async () => {
    const auckland = await created(shop.api, '/api/v1/locations', { name: 'Auckland', timezone: 'Pacific/Auckland' })
    const midnight = (name: string, locationId: string) =>
      created(shop.api, '/api/v1/automations', {
        name,
        trigger: { type: 'schedule', cron: '0 0 * * *', location_id: locationId },
        conditions: { match: 'all', rules: [{ path: 'time_zone', op: 'exists' }] },
        actions: [{ type: 'send_email', to: 'owner@example.com', subject: name, text: 'Day starts {{local_time}}' }],
      })
    const nz = await midnight('NZ midnight', auckland.id)
    const utc = await midnight('UTC midnight', shop.locationId)
    await settle()

    clock = new Date('2026-03-01T10:59:59Z') // 23:59:59 in Auckland (NZDT, UTC+13)
    await settle()
    assert.deepEqual(await runs(nz.id), [])

    clock = new Date('2026-03-01T11:00:01Z') // 00:00:01 on 2 March in Auckland
    const [run] = await eventually(async () => {
      const list = await runs(nz.id)
      assert.equal(list.length, 1)
      assert.equal(list[0].status, 'succeeded')
      return list
    })
    assert.equal(run.event, 'schedule')
    assert.equal(run.scheduled_for, '2026-03-01T11:00:00.000Z')
    assert.deepEqual(run.data, {
      scheduled_for: '2026-03-01T11:00:00.000Z',
      location_id: auckland.id,
      time_zone: 'Pacific/Auckland',
      local_time: '2026-03-02T00:00',
    })
    assert.ok(mailer.sent.some((m) => m.subject === 'NZ midnight' && m.text === 'Day starts 2026-03-02T00:00'))
    assert.deepEqual(await runs(utc.id), [], 'not yet midnight in UTC')

    clock = new Date('2026-03-02T00:00:30Z') // UTC midnight, 13:00 in Auckland
    await eventually(async () => assert.equal((await runs(utc.id)).length, 1))
    await settle()
    assert.equal((await runs(nz.id)).length, 1, 'one run per slot')

    clock = new Date('2026-03-02T11:00:05Z') // the next Auckland midnight
    await eventually(async () => assert.equal((await runs(nz.id)).length, 2))
    assert.equal((await runs(utc.id)).length, 1)
  })
})
