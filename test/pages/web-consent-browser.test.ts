import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import type { Browser } from 'playwright-core'
import { MERCHANT_SCOPES } from '../../src/modules/auth/index.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts'
import { createMerchant, type Merchant } from '../support/harness.ts'
import { authorizeUrl, type ListeningApps, startListeningApps } from '../support/web.ts'

describe('the consent screen in headless Chromium', { skip: skipWithoutChromium }, () => {
  let apps: ListeningApps
  let merchant: Merchant
  let browser: Browser
  let callbackServer: Server
  let redirectUri: string
  let clientId: string

  before(async () => {
    callbackServer = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received'),
    )
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve))
    redirectUri = `http://127.0.0.1:${(callbackServer.address() as { port: number }).port}/callback`
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    const developer = await createMerchant(apps.app, { name: 'Developer' })
    const ctx = systemContext(apps.app.runtime.database, developer.orgId, MERCHANT_SCOPES)
    const created = await apps.app.services.oauth.apps.create(ctx, {
      name: 'Shelf Labels',
      redirectUris: [redirectUri],
      allowedScopes: ['catalog:read'],
    })
    clientId = created.app.client_id
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await apps?.close()
    callbackServer?.close()
  })

  const authorize = (state: string, redirect = redirectUri) =>
    authorizeUrl(apps.appUrl, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirect,
      scope: 'catalog:read catalog:write',
      state,
    })

  it('signs in, approves and lands on the callback with a code, the state and iss', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(authorize('state-approve'))
    assert.match(page.url(), /\/login\?return_to=/)
    await page.getByLabel('E-mail').fill(merchant.email)
    await page.getByLabel('Password').fill(merchant.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: /Allow Shelf Labels/ }).waitFor()
    // The app may only read the catalog, so the consent lists that and says catalog:write is not granted.
    assert.ok(await page.getByText('See your products, categories, modifiers and price lists').isVisible())
    assert.ok(await page.getByText(/It asked for more/).isVisible())
    await page.getByRole('button', { name: 'Allow access' }).click()
    await page.waitForURL(/\/callback\?/)
    const callback = new URL(page.url())
    assert.ok(callback.searchParams.get('code'))
    assert.equal(callback.searchParams.get('state'), 'state-approve')
    assert.equal(callback.searchParams.get('iss'), apps.baseUrl)
    assert.equal(await page.textContent('body'), 'callback received')

    const tokens = await fetch(`${apps.baseUrl}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: redirectUri,
        client_id: clientId,
      }),
    })
    // Confidential app without its secret: refused, the code is no good to whoever read it from the URL.
    assert.equal(tokens.status, 401)
    await context.close()
  })

  it('denies and lands on the callback with access_denied', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(authorize('state-deny'))
    await page.getByLabel('E-mail').fill(merchant.email)
    await page.getByLabel('Password').fill(merchant.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Deny' }).click()
    await page.waitForURL(/\/callback\?/)
    const callback = new URL(page.url())
    assert.equal(callback.searchParams.get('error'), 'access_denied')
    assert.equal(callback.searchParams.get('state'), 'state-deny')
    assert.equal(callback.searchParams.get('code'), null)
    await context.close()
  })

  it('stays on an error page when the redirect URI is tampered with', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const response = await page.goto(authorize('state-evil', 'https://evil.example/callback'))
    assert.equal(response?.status(), 400)
    assert.ok(page.url().startsWith(apps.appUrl))
    assert.ok(
      await page.getByText('The redirect address in this request is not registered for the application.').isVisible(),
    )
    await context.close()
  })
})
