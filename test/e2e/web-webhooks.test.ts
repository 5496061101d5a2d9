import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { WebhookWorker } from '../../src/modules/webhooks/index.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { HttpsReceiver } from '../support/https-receiver.ts'
import { Browser, hiddenValue, type ListeningApps, startListeningApps } from '../support/web.ts'
import { emitAs, RECEIVER_ENV, sleep, startTestWorker } from '../support/webhook-fixtures.ts'

describe('the Webhooks dashboard page over HTTP', () => {
  let apps: ListeningApps
  let receiver: HttpsReceiver
  let worker: WebhookWorker
  let owner: Merchant
  let api: ReturnType<typeof clientFor>
  let failedId: string
  let hookUrl: string

  before(async () => {
    receiver = await new HttpsReceiver().start()
    apps = await startListeningApps(RECEIVER_ENV)
    worker = startTestWorker(apps.app)
    owner = await createMerchant(apps.app)
    api = clientFor(apps.app.api, owner.token)
    const integration = (await api.post('/api/v1/integrations', { name: 'Shop', type: 'ecommerce' })).body.data
    receiver.script('/web', [], { status: 500 })
    hookUrl = receiver.url('/web')
    await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: hookUrl,
      events: ['order.created'],
      description: '<b>shop</b>',
    })
    await emitAs(apps.app, owner, 'order.created', { id: 'ord_web' })
    for (let i = 0; i < 300 && !failedId; i++) {
      await sleep(50)
      failedId = (await api.get('/api/v1/webhooks/failed')).body.data[0]?.id
    }
    assert.ok(failedId)
  })
  after(async () => {
    await worker.stop()
    await receiver.close()
    await apps.close()
  })

  async function signedIn(merchant: Merchant) {
    const browser = new Browser(apps.appUrl)
    assert.equal((await browser.signIn(merchant.email, merchant.password)).status, 303)
    const res = await browser.get('/dashboard/webhooks')
    assert.equal(res.status, 200)
    const html = await res.text()
    return { browser, html, csrf: hiddenValue(html, 'csrf') }
  }

  it('sends a visitor who is not signed in to the sign-in page and back', async () => {
    const res = await new Browser(apps.appUrl).get('/dashboard/webhooks')
    assert.equal(res.status, 303)
    assert.equal(res.headers.get('location'), '/login?return_to=%2Fdashboard%2Fwebhooks')
    const post = await new Browser(apps.appUrl).post(`/dashboard/webhooks/failed/${failedId}/replay`, {})
    assert.equal(post.status, 303)
    assert.match(String(post.headers.get('location')), /^\/login/)
  })

  it('lists the endpoint, its failed event and the attempt, with escaped text and a nav link', async () => {
    const { html } = await signedIn(owner)
    assert.ok(html.includes(hookUrl))
    assert.ok(html.includes(failedId))
    assert.ok(html.includes('&lt;b&gt;shop&lt;/b&gt;'))
    assert.ok(!html.includes('<b>shop</b>'))
    assert.match(html, /<a href="\/dashboard\/webhooks">Webhooks<\/a>/)
    assert.match(html, /failed, 500/)
    assert.match(html, /aria-label="Replay order.created msg_/)
    assert.match(html, /aria-label="Replay all failed events"/)
  })

  it('refuses a form without its CSRF token and replays nothing', async () => {
    const { browser } = await signedIn(owner)
    const res = await browser.post(`/dashboard/webhooks/failed/${failedId}/replay`, { csrf: 'forged' })
    assert.equal(res.status, 403)
    assert.equal((await browser.post('/dashboard/webhooks/failed/replay', {})).status, 403)
    await sleep(150)
    assert.equal((await api.get('/api/v1/webhooks/failed')).body.data[0]?.id, failedId)
    assert.equal(receiver.on('/web').length, 1)
  })

  it("shows another merchant none of this store's webhooks and answers their replay and re-enable with not found", async () => {
    const intruder = await createMerchant(apps.app)
    const { browser, html, csrf } = await signedIn(intruder)
    assert.ok(!html.includes(hookUrl))
    assert.ok(!html.includes(failedId))
    assert.match(html, /No webhook endpoints yet/)
    const replay = await browser.post(`/dashboard/webhooks/failed/${failedId}/replay`, { csrf })
    assert.equal(replay.status, 303)
    assert.equal(replay.headers.get('location'), '/dashboard/webhooks?error=not_found')
    const hookId = (await api.get('/api/v1/webhooks/endpoints')).body.data[0].id
    const enable = await browser.post(`/dashboard/webhooks/endpoints/${hookId}/enable`, { csrf })
    assert.equal(enable.headers.get('location'), '/dashboard/webhooks?error=not_found')
    const all = await browser.post('/dashboard/webhooks/failed/replay', { csrf })
    assert.equal(all.headers.get('location'), '/dashboard/webhooks?done=replayed_all&count=0')
    const shown = await (await browser.get(String(replay.headers.get('location')))).text()
    assert.match(shown, /role="alert">No such failed event or endpoint in your store/)
    await sleep(150)
    assert.equal((await api.get('/api/v1/webhooks/failed')).body.data[0]?.id, failedId)
    assert.equal(receiver.on('/web').length, 1)
  })

  it('shows only its own fixed texts for outcomes, whatever the address says', async () => {
    const { browser } = await signedIn(owner)
    const html = await (await browser.get('/dashboard/webhooks?done=constructor&error=%3Cscript%3E')).text()
    assert.ok(!html.includes('role="status"'))
    assert.ok(!html.includes('<script>'))
  })

  it('replays the failed event from the page', async () => {
    receiver.script('/web', [], { status: 200 })
    const { browser, csrf } = await signedIn(owner)
    const res = await browser.post(`/dashboard/webhooks/failed/${failedId}/replay`, { csrf })
    assert.equal(res.status, 303)
    assert.equal(res.headers.get('location'), '/dashboard/webhooks?done=replayed')
    await receiver.waitFor(() => receiver.on('/web').length === 2)
    const again = await browser.post(`/dashboard/webhooks/failed/${failedId}/replay`, { csrf })
    assert.match(String(again.headers.get('location')), /error=(conflict|not_found)/)
  })
})
