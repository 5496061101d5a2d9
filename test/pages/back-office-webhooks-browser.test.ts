import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import type { WebhookWorker } from '../../src/modules/webhooks/index.ts'
import { assertAccessible } from '../support/axe.ts'
import { sidewaysScroll, signedInPage } from '../support/back-office.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { eventually } from '../support/eventually.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { HttpsReceiver } from '../support/https-receiver.ts'
import { invitedAndSignedIn } from '../support/people.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'
import { emitAs, RECEIVER_ENV, startTestWorker } from '../support/webhook-fixtures.ts'

const SCREENSHOTS = process.env.BACK_OFFICE_SCREENSHOTS ?? '/tmp/opentill-back-office'

/**
 * The back office's Webhooks page in headless Chromium: a receiver that is down shows in plain words, a replay
 * reaches it once it is up, a new signing secret is asked for first and signs the next event, a paused receiver is
 * resumed and its events sent again.
 */
describe('the back office Webhooks page, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser
  let owner: Merchant
  let api: ReturnType<typeof clientFor>
  let worker: WebhookWorker
  let receiver: HttpsReceiver
  let port: number
  let hook: { id: string; url: string; secret: string }

  before(async () => {
    // A port nobody listens on yet: the receiver is down until the test starts it there.
    const probe = await new HttpsReceiver().start()
    port = probe.port
    await probe.close()
    receiver = new HttpsReceiver()
    apps = await startListeningApps(RECEIVER_ENV)
    worker = startTestWorker(apps.app)
    owner = await createMerchant(apps.app, { name: 'Harbour Deli' })
    api = clientFor(apps.app.api, owner.token)
    const integration = (await api.post('/api/v1/integrations', { name: 'Xero bridge', type: 'accounting' })).body.data
    const created = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: `https://localhost:${port}/books`,
      events: ['order.created', 'customer.created'],
    })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    hook = created.body.data
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await worker?.stop()
    await receiver?.close()
    await apps?.close()
  })

  const failedEvents = async () => (await api.get('/api/v1/webhooks/failed')).body.data as { id: string }[]

  const openWebhooks = async (page: Page) => {
    await page.getByText('More', { exact: true }).click()
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor()
  }

  it('says a receiver that is down is not answering, and a replay reaches it once it is up', async () => {
    await emitAs(apps.app, owner, 'order.created', { id: 'ord_down' })
    await eventually(async () => assert.equal((await failedEvents()).length, 1))

    const { page, context, errors } = await signedInPage(browser, apps.appUrl, owner, 1280)
    await openWebhooks(page)
    const receivers = page.getByRole('region', { name: 'Where the store’s events go' })
    await receivers.getByText(/^Xero bridge is not answering since .+: 1 event waiting\.$/).waitFor()
    await receivers.getByText(`https://localhost:${port}/books`).waitFor()
    await receivers.getByText('Order created, Customer created').waitFor()
    const failed = page.getByRole('region', { name: 'Events that did not arrive' })
    await failed.getByText(/^Order created for Xero bridge did not arrive \(.+, 1 try\)\./).waitFor()
    await failed.getByText(/no answer: ECONNREFUSED/).waitFor()
    // The raw attempts, behind a disclosure.
    await page.getByText('Every attempt to reach Xero bridge').click()
    const attempts = page.getByRole('table', { name: 'The latest attempts to reach Xero bridge' })
    await attempts.getByRole('cell', { name: /no answer: ECONNREFUSED/ }).waitFor()
    await assertAccessible(page)
    await page.screenshot({ path: `${SCREENSHOTS}-webhooks-down-1280.png`, fullPage: true })

    await receiver.start(port)
    await failed.getByRole('button', { name: 'Send Order created to Xero bridge again' }).click()
    await page.getByRole('status').filter({ hasText: 'Order created is on its way again' }).waitFor()
    await receiver.waitFor(() => receiver.on('/books').length === 1)
    assert.equal(JSON.parse(receiver.on('/books')[0].body).data.id, 'ord_down')
    // The page watches: the receiver answers again and nothing waits.
    await receivers.getByText('Xero bridge is receiving events.', { exact: true }).waitFor()
    await failed.getByText('Every event of the last 72 hours arrived.').waitFor()
    await attempts.getByRole('cell', { name: 'delivered (200)' }).waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('asks before a new signing secret, shows it once, and the next event is signed with it', async () => {
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, owner, 390)
    await openWebhooks(page)
    await page.getByRole('button', { name: 'New signing secret for Xero bridge' }).click()
    const dialog = page.getByRole('dialog', { name: 'Give Xero bridge a new signing secret?' })
    await dialog.getByText(/for 24 hours, the old one too/).waitFor()
    await dialog.getByRole('button', { name: 'Make a new secret' }).click()
    const shown = page.getByRole('status').filter({ hasText: 'shown this once' })
    const secret = (await shown.locator('code').innerText()).trim()
    assert.match(secret, /^whsec_/)
    assert.notEqual(secret, hook.secret)
    await page.getByText(/^still signs until /).waitFor()

    await emitAs(apps.app, owner, 'customer.created', { id: 'cus_signed' })
    await receiver.waitFor(() => receiver.on('/books').length === 2)
    const delivery = receiver.on('/books')[1]
    const verified = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)
    assert.equal((verified as { data: { id: string } }).data.id, 'cus_signed')

    const audit = (await api.get('/api/v1/audit-log?action=webhook.secret_rotated')).body.data
    assert.equal(audit[0]?.record_id, hook.id)
    const fit = await sidewaysScroll(page)
    assert.ok(fit.scroll <= fit.client, `scrolls sideways: ${fit.scroll} > ${fit.client}`)
    await assertAccessible(page)
    await page.screenshot({ path: `${SCREENSHOTS}-webhooks-390.png`, fullPage: true })
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('shows a paused receiver, resumes it and sends everything that did not arrive again', async () => {
    receiver.script('/books', [], { status: 500 })
    for (let i = 0; i < 10; i++) await emitAs(apps.app, owner, 'customer.created', { id: `cus_${i}` })
    await eventually(async () => {
      const [endpoint] = (await api.get('/api/v1/webhooks/endpoints')).body.data
      assert.equal(endpoint.status, 'suspended')
      assert.equal(endpoint.events_failed, 10)
    })
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, owner, 1280)
    await openWebhooks(page)
    await page.getByText(/^Xero bridge is paused since .+: 10 events waiting\.$/).waitFor()
    await page
      .getByText(/Resume Xero bridge first/)
      .first()
      .waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}-webhooks-paused-1280.png`, fullPage: true })

    receiver.script('/books', [], { status: 200 })
    const before = receiver.on('/books').length
    await page.getByRole('button', { name: 'Resume Xero bridge' }).click()
    await page.getByRole('status').filter({ hasText: 'Xero bridge is resumed' }).waitFor()
    await page.getByRole('button', { name: 'Send them all again' }).click()
    await page.getByRole('status').filter({ hasText: '10 events are on their way again.' }).waitFor()
    await receiver.waitFor(() => receiver.on('/books').length === before + 10)
    await page.getByText('Every event of the last 72 hours arrived.').waitFor()
    await page.getByText('Xero bridge is receiving events.', { exact: true }).waitFor()

    // Each of these actions is in the audit log, newest first (the More menu is open on a page of its own).
    await page.getByRole('link', { name: 'Audit log', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor()
    const logged = await page.locator('main li strong').allInnerTexts()
    assert.deepEqual(logged.slice(0, 4), [
      'Webhook events sent again',
      'Webhook resumed',
      'Webhook secret replaced',
      'Webhook event sent again',
    ])
    assert.deepEqual(errors, [])
    await context.close()
  })

  it('tells a manager that webhooks are the owner’s', async () => {
    const manager = await invitedAndSignedIn(apps.app, api, 'manager')
    const { page, context, errors } = await signedInPage(browser, apps.appUrl, manager, 1280)
    await page.getByText('More', { exact: true }).click()
    assert.equal(await page.getByRole('link', { name: 'Webhooks', exact: true }).count(), 0)
    await page.goto(`${apps.appUrl}/dashboard/webhooks`)
    await page.getByText('Webhooks are the store owner’s to watch and replay.').waitFor()
    assert.deepEqual(errors, [])
    await context.close()
  })
})
