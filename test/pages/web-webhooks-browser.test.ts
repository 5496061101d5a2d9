import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import type { WebhookWorker } from '../../src/modules/webhooks/index.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { HttpsReceiver } from '../support/https-receiver.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'
import { emitAs, RECEIVER_ENV, sleep, startTestWorker } from '../support/webhook-fixtures.ts'

describe('the Webhooks dashboard page in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let receiver: HttpsReceiver
  let worker: WebhookWorker
  let browser: Browser
  let merchant: Merchant
  let api: ReturnType<typeof clientFor>
  let integrationId: string
  let page: Page

  before(async () => {
    receiver = await new HttpsReceiver().start()
    apps = await startListeningApps(RECEIVER_ENV)
    worker = startTestWorker(apps.app)
    merchant = await createMerchant(apps.app)
    api = clientFor(apps.app.api, merchant.token)
    integrationId = (await api.post('/api/v1/integrations', { name: 'Accounting', type: 'accounting' })).body.data.id
    browser = await launchChromium()
    page = await (await browser.newContext()).newPage()
    await page.goto(`${apps.appUrl}/dashboard/webhooks`)
    assert.match(page.url(), /\/login\?return_to=/)
    await page.getByLabel('E-mail').fill(merchant.email)
    await page.getByLabel('Password').fill(merchant.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
  })
  after(async () => {
    await browser?.close()
    await worker?.stop()
    await receiver?.close()
    await apps?.close()
  })

  async function endpoint(path: string, events: string[]) {
    const res = await api.post(`/api/v1/integrations/${integrationId}/webhooks`, { url: receiver.url(path), events })
    assert.equal(res.status, 201)
    return res.body.data as { id: string; url: string }
  }

  const emit = (type: string, data: object) => emitAs(apps.app, merchant, type, data)

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (done(value)) return value
      if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`)
      await sleep(50)
    }
  }

  it('shows a failed event and replays it with the Replay button until the receiver has it', async () => {
    receiver.script('/books', [{ status: 500 }])
    const hook = await endpoint('/books', ['order.created'])
    await emit('order.created', { id: 'ord_dash' })
    const [failed] = await until(
      async () => (await api.get('/api/v1/webhooks/failed')).body.data as { id: string }[],
      (rows) => rows.length === 1,
    )

    await page.reload()
    const row = page
      .getByRole('table', { name: /Failed events/ })
      .getByRole('row')
      .filter({ hasText: failed.id })
    await row.waitFor()
    assert.match(await row.innerText(), /order\.created[\s\S]*500/)
    assert.ok(await page.getByRole('cell', { name: hook.url }).first().isVisible())
    await page.getByRole('button', { name: `Replay order.created ${failed.id}` }).click()
    await page.getByRole('status').filter({ hasText: 'queued again' }).waitFor()

    await receiver.waitFor(() => receiver.on('/books').length === 2)
    const [first, second] = receiver.on('/books')
    assert.equal(second.headers['webhook-id'], failed.id)
    assert.equal(second.body, first.body)
    await until(
      async () => (await api.get('/api/v1/webhooks/failed')).body.data.length,
      (n) => n === 0,
    )
    await page.reload()
    assert.equal(await page.getByText('No failed events in the last 72 hours.').isVisible(), true)
    const attempts = page.getByRole('table', { name: /most recent delivery attempts/ })
    assert.match(await attempts.getByRole('row').nth(1).innerText(), /delivered, 200/)
    assert.match(await attempts.innerText(), /failed, 500/)
  })

  it('shows the suspension notice, re-enables the endpoint and replays every failed event with Replay all', async () => {
    receiver.script('/down', [], { status: 500 })
    const hook = await endpoint('/down', ['customer.created'])
    for (let i = 0; i < 10; i++) await emit('customer.created', { id: `cus_${i}` })
    await until(
      async () => (await api.get('/api/v1/webhooks/endpoints?status=suspended')).body.data,
      (rows: { suspension_notified_by: string | null }[]) =>
        rows.length === 1 && rows[0].suspension_notified_by === 'log',
    )

    await page.reload()
    const notice = page.getByRole('alert').filter({ hasText: 'are suspended' })
    await notice.waitFor()
    assert.match(await notice.innerText(), /10 consecutive events failed/)
    assert.match(await notice.innerText(), /server log carry the notice/)
    // Replaying to a suspended endpoint is offered only after re-enabling.
    assert.equal(await page.getByText('Re-enable the endpoint first').count(), 10)

    receiver.script('/down', [], { status: 200 })
    await notice.getByRole('button', { name: `Re-enable ${hook.url}` }).click()
    await page.getByRole('status').filter({ hasText: 'active again' }).waitFor()
    assert.equal(await page.getByRole('alert').count(), 0)
    const status = (await api.get(`/api/v1/integrations/${integrationId}/webhooks/${hook.id}`)).body.data.status
    assert.equal(status, 'active')

    await page.getByRole('button', { name: 'Replay all failed events' }).click()
    await page.getByRole('status').filter({ hasText: '10 failed events were queued again.' }).waitFor()
    await receiver.waitFor(() => receiver.on('/down').length === 20)
    const ids = receiver.on('/down').map((r) => r.headers['webhook-id'])
    assert.deepEqual(new Set(ids.slice(10)), new Set(ids.slice(0, 10)))
  })
})
