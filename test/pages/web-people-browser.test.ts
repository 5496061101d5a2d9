import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pino from 'pino'
import type { Browser, Page } from 'playwright-core'
import { type MailOutbox, SmtpMailer, startMailOutbox } from '../../src/platform/mail/index.ts'
import { assertAccessible } from '../support/axe.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { eventually } from '../support/eventually.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { type Smtp, startSmtp } from '../support/smtp.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

const SCREENSHOTS = process.env.PEOPLE_SCREENSHOTS ?? '/tmp/opentill-people'

/** A staff invitation and a password reset as a person does them: the e-mail, the link, the page, sign-in. */
describe('staff invitations and password resets in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let smtp: Smtp
  let outbox: MailOutbox
  let browser: Browser
  let owner: Merchant

  before(async () => {
    smtp = await startSmtp()
    apps = await startListeningApps({ SMTP_URL: smtp.url })
    outbox = startMailOutbox({
      database: apps.app.runtime.database,
      secrets: apps.app.runtime.secrets,
      mailer: new SmtpMailer({ url: smtp.url, from: 'OpenTill <no-reply@shop.test>' }),
      log: pino({ level: 'silent' }),
      pollMs: 50,
    })
    owner = await createMerchant(apps.app, { name: 'Corner Cafe' })
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await outbox?.stop()
    await apps?.close()
    await smtp?.close()
  })

  async function linkMailedTo(to: string, path: string): Promise<string> {
    const mail = await eventually(async () => {
      const found = smtp.mails.find((m) => m.to.includes(to) && m.raw.includes(path))
      assert.ok(found, `no mail to ${to} yet`)
      return found
    })
    return new RegExp(`${apps.appUrl}${path}[A-Za-z0-9_-]+`).exec(mail.raw)![0]
  }

  async function signInThrough(page: Page, email: string, password: string) {
    await page.goto(`${apps.appUrl}/login`)
    await page.getByLabel('E-mail').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
  }

  it('lets an invited cashier open the e-mailed link, choose a password and sign in', async () => {
    const email = 'cashier@corner.example'
    const invited = await clientFor(apps.app.api, owner.token).post('/api/v1/users', { email, role: 'staff' })
    assert.equal(invited.status, 201)
    assert.equal(invited.body.data.delivery, 'email')
    assert.equal(invited.body.data.url, undefined, 'with SMTP, the link goes to the invitee only')
    const url = await linkMailedTo(email, '/invite/')
    assert.match(smtp.mails.find((m) => m.to.includes(email))!.raw, /Corner Cafe/)

    for (const width of [1280, 390]) {
      const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage()
      await page.goto(url)
      await page.getByRole('heading', { name: 'Welcome to OpenTill' }).waitFor()
      await assertAccessible(page)
      await page.screenshot({ path: `${SCREENSHOTS}-invitation-${width}.png` })
      if (width === 390) {
        await page.getByLabel('Password', { exact: true }).fill('password123')
        await page.getByLabel('Password again').fill('password123')
        await page.getByRole('button', { name: 'Create my account' }).click()
        assert.match(await page.getByRole('alert').innerText(), /most common/)
        await page.getByLabel('Password', { exact: true }).fill('a cashier long passphrase')
        await page.getByLabel('Password again').fill('a cashier long passphrase')
        await page.getByRole('button', { name: 'Create my account' }).click()
        // Signed in at once, in the back office.
        await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor()
        await page.screenshot({ path: `${SCREENSHOTS}-invitation-accepted-${width}.png` })
      }
      await page.context().close()
    }
    const login = await clientFor(apps.app.api).post('/api/v1/auth/login', {
      email,
      password: 'a cashier long passphrase',
    })
    assert.equal(login.status, 200)
    const me = await clientFor(apps.app.api, login.body.data.accessToken).get('/api/v1/auth/me')
    assert.deepEqual([me.body.data.role, me.body.data.orgId], ['staff', owner.orgId])
  })

  it('resets a forgotten password from the sign-in page, by the e-mailed link, once', async () => {
    const page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage()
    await page.goto(`${apps.appUrl}/login`)
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor()
    await assertAccessible(page)
    await page.getByLabel('E-mail').fill(owner.email)
    await page.getByRole('button', { name: 'Send the link' }).click()
    assert.match(await page.getByRole('status').innerText(), /a link is on its way/)
    await page.screenshot({ path: `${SCREENSHOTS}-forgot-390.png` })

    const url = await linkMailedTo(owner.email, '/reset-password/')
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(url)
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
      await assertAccessible(page)
      await page.screenshot({ path: `${SCREENSHOTS}-reset-${width}.png` })
    }
    await page.getByLabel('New password', { exact: true }).fill('the owner new passphrase')
    await page.getByLabel('New password again').fill('the owner new passphrase')
    await page.getByRole('button', { name: 'Set my password' }).click()
    await page.getByRole('heading', { name: 'Your password is changed' }).waitFor()

    await page.goto(url)
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase')
    await page.getByLabel('New password again').fill('yet another passphrase')
    await page.getByRole('button', { name: 'Set my password' }).click()
    assert.match(await page.getByRole('alert').innerText(), /invalid, already used or expired/)

    await signInThrough(page, owner.email, 'the owner new passphrase')
    await page.waitForURL(/\/dashboard/)
    await page.context().close()
  })

  it('lets a person of two stores join the second with their password, then choose a store at sign-in', async () => {
    const password = 'the owner new passphrase'
    const bakery = await createMerchant(apps.app, { name: 'Bakery' })
    const invited = await clientFor(apps.app.api, bakery.token).post('/api/v1/users', {
      email: owner.email,
      role: 'owner',
    })
    assert.equal(invited.status, 201)
    const url = await linkMailedTo(owner.email, '/invite/')
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } })
    const page = await context.newPage()
    await page.goto(url)
    await page.getByLabel('Password', { exact: true }).fill('not my password at all')
    await page.getByLabel('Password again').fill('not my password at all')
    await page.getByRole('button', { name: 'Create my account' }).click()
    assert.match(await page.getByRole('alert').innerText(), /already has an OpenTill account/)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByLabel('Password again').fill(password)
    await page.getByRole('button', { name: 'Create my account' }).click()
    await page.getByRole('status').waitFor()

    await signInThrough(page, owner.email, password)
    await page.getByRole('heading', { name: 'Choose a store' }).waitFor()
    await assertAccessible(page)
    await page.screenshot({ path: `${SCREENSHOTS}-store-picker-390.png` })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: `${SCREENSHOTS}-store-picker-1280.png` })
    await page.getByLabel('Bakery').check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(/\/dashboard/)
    const session = (await context.cookies()).find((c) => c.name === 'opentill_session')
    const signedIn = await apps.app.services.oauth.webSessions.find(session?.value)
    assert.equal(signedIn?.orgId, bakery.orgId)
    await context.close()
  })
})
