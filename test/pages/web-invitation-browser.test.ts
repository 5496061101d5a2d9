import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { assertAccessible } from '../support/axe.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { clientFor, createMerchant, type Merchant } from '../support/harness.ts'
import { type ListeningApps, startListeningApps } from '../support/web.ts'

describe('the invitation link of a provisioned tenant in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let browser: Browser
  let reseller: Merchant
  let partnerToken: string

  before(async () => {
    apps = await startListeningApps()
    reseller = await createMerchant(apps.app, { name: 'Reseller Ltd' })
    const ctx = systemContext(apps.app.runtime.database, reseller.orgId, ['webhooks:write'])
    const { app: partnerApp, clientSecret } = await apps.app.services.oauth.apps.create(ctx, {
      name: 'Reseller',
      redirectUris: ['https://partner.example/callback'],
      partner: true,
      allowedScopes: ['catalog:read'],
    })
    const token = await clientFor(apps.app.api).post('/api/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partnerApp.client_id,
      client_secret: clientSecret,
    })
    partnerToken = token.body.access_token
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await apps?.close()
  })

  /** A tenant provisioned through the API, and the invitation link its answer carries (to APP_URL). */
  async function provision(ownerEmail: string): Promise<{ url: string; orgId: string }> {
    const res = await clientFor(apps.app.api, partnerToken).post('/api/v1/partners/tenants', {
      name: 'Corner Cafe',
      owner_email: ownerEmail,
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    assert.ok(res.body.data.invitation.url.startsWith(`${apps.appUrl}/invite/inv_`))
    return { url: res.body.data.invitation.url, orgId: res.body.data.org_id }
  }

  async function choosePassword(page: Page, password: string, confirm = password) {
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByLabel('Password again').fill(confirm)
    await page.getByRole('button', { name: 'Create my account' }).click()
  }

  it('lets the invited owner choose a password, then sign in to the new org', async () => {
    const email = `owner-${Date.now()}@cafe.example`
    const { url, orgId } = await provision(email)
    const page = await (await browser.newContext()).newPage()
    await page.goto(url)
    await page.getByRole('heading', { name: 'Welcome to OpenTill' }).waitFor()

    await choosePassword(page, 'a-long-enough-password', 'another-long-password')
    assert.match(await page.getByRole('alert').innerText(), /differ/)
    await choosePassword(page, 'a-long-enough-password')
    // Signed in at once, in the back office.
    await page.waitForURL(/\/dashboard/)
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor()
    const login = await clientFor(apps.app.api).post('/api/v1/auth/login', {
      email,
      password: 'a-long-enough-password',
    })
    assert.equal(login.body.data.user.orgId, orgId)

    // The link works once, and says so as it opens.
    const again = await page.goto(url)
    assert.equal(again?.status(), 410)
    await page.getByRole('heading', { name: 'This invitation can no longer be used' }).waitFor()
    await assertAccessible(page)
  })

  it('tells the holder of a link for a registered e-mail, and leaves that account alone', async () => {
    const { url } = await provision(reseller.email)
    const page = await (await browser.newContext()).newPage()
    await page.goto(url)
    await choosePassword(page, 'a-long-enough-password')
    assert.match(await page.getByRole('alert').innerText(), /already has an OpenTill account/)
    const login = await clientFor(apps.app.api).post('/api/v1/auth/login', {
      email: reseller.email,
      password: reseller.password,
    })
    assert.equal(login.status, 200)
  })

  it('refuses a post without the form token', async () => {
    const { url } = await provision(`owner-csrf-${Date.now()}@cafe.example`)
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=a-long-enough-password&confirm=a-long-enough-password',
    })
    assert.equal(res.status, 403)
  })
})
