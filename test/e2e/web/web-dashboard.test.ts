import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant } from '../../support/harness.ts'
import { Browser, hiddenValue, type ListeningApps, startListeningApps } from '../../support/web.ts'

describe('the dashboard: my apps', () => {
  let apps: ListeningApps
  let merchant: Merchant
  let browser: Browser
  let csrf: string

  before(async () => {
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    browser = new Browser(apps.appUrl)
  })
  after(() => apps.close())

  /** Whether a secret authenticates: a non-partner app gets unauthorized_client (authenticated), else invalid_client. */
  async function secretWorks(clientId: string, secret: string): Promise<boolean> {
    const res = await clientFor(apps.app.api).post('/api/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    })
    if (res.body.error === 'unauthorized_client') return true
    assert.equal(res.body.error, 'invalid_client')
    return false
  }

  it('sends a signed-out visitor to sign in, and refuses a wrong password', async () => {
    const res = await browser.get('/dashboard/apps')
    assert.equal(res.status, 303)
    assert.equal(res.headers.get('location'), '/login?return_to=%2Fdashboard%2Fapps')
    const wrong = await browser.signIn(merchant.email, 'wrong-password')
    assert.equal(wrong.status, 401)
    assert.match(await wrong.text(), /incorrect/)
  })

  it('refuses a sign-in form without its CSRF token', async () => {
    const res = await new Browser(apps.appUrl).post('/login', { email: merchant.email, password: merchant.password })
    assert.equal(res.status, 403)
    assert.equal(
      res.headers.getSetCookie().some((c) => c.startsWith('opentill_session=')),
      false,
    )
  })

  it('registers a confidential app and shows its secret once', async () => {
    assert.equal((await browser.signIn(merchant.email, merchant.password)).status, 303)
    const list = await browser.get('/dashboard/apps')
    assert.equal(list.status, 200)
    const html = await list.text()
    assert.match(html, /<label for="name">App name<\/label>/)
    assert.equal(list.headers.get('x-frame-options'), 'DENY')
    // Partner status is the operator's to grant (opentill create-app --partner), not a merchant's checkbox.
    assert.doesNotMatch(html, /name="partner"/)
    csrf = hiddenValue(html, 'csrf')
    const created = await browser.post('/dashboard/apps', {
      csrf,
      name: 'Label Printer',
      redirect_uris: 'https://labels.example/cb\nhttp://127.0.0.1:8080/cb',
      allowed_scopes: ['catalog:read', 'inventory:read'],
      client_type: 'confidential',
      partner: 'yes',
    })
    assert.equal(created.status, 201)
    const page = await created.text()
    const clientId = /<code id="client-id">([^<]+)<\/code>/.exec(page)![1]
    const secret = /<code class="secret" id="client-secret">([^<]+)<\/code>/.exec(page)![1]
    assert.ok(await secretWorks(clientId, secret))
    // A forged partner field is ignored: the app cannot use client credentials.
    const token = await fetch(`${apps.baseUrl}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
    })
    assert.equal(((await token.json()) as { error: string }).error, 'unauthorized_client')
    const detail = await (await browser.get(`/dashboard/apps/${clientId}`)).text()
    assert.doesNotMatch(detail, new RegExp(secret), 'the secret is shown only once')
    assert.match(detail, /https:\/\/labels\.example\/cb/)
    assert.match(detail, /inventory:read/)
  })

  it('refuses an invalid redirect URI with a 422 naming it, and creates nothing', async () => {
    const res = await browser.post('/dashboard/apps', {
      csrf,
      name: 'Bad',
      redirect_uris: 'http://evil.example/cb',
      client_type: 'confidential',
    })
    assert.equal(res.status, 422)
    assert.match(await res.text(), /redirect_uris\.0 must use https/)
    assert.doesNotMatch(await (await browser.get('/dashboard/apps')).text(), />Bad</)
  })

  it('registers a public app without a secret', async () => {
    const res = await browser.post('/dashboard/apps', {
      csrf,
      name: 'Phone App',
      redirect_uris: 'http://127.0.0.1/cb',
      client_type: 'public',
    })
    assert.equal(res.status, 201)
    assert.match(await res.text(), /none \(public client: use PKCE\)/)
  })

  it('edits redirect URIs and rotates the secret, retiring the old one at once', async () => {
    const created = await (
      await browser.post('/dashboard/apps', {
        csrf,
        name: 'Rotator',
        redirect_uris: 'https://r.example/cb',
        client_type: 'confidential',
      })
    ).text()
    const clientId = /<code id="client-id">([^<]+)<\/code>/.exec(created)![1]
    const oldSecret = /id="client-secret">([^<]+)</.exec(created)![1]
    const saved = await browser.post(`/dashboard/apps/${clientId}`, { csrf, redirect_uris: 'https://r.example/new-cb' })
    assert.equal(saved.status, 303)
    const detail = await (await browser.get(saved.headers.get('location')!)).text()
    assert.match(detail, /Saved\./)
    assert.match(detail, /https:\/\/r\.example\/new-cb/)
    assert.doesNotMatch(detail, /https:\/\/r\.example\/cb</)

    const rotated = await browser.post(`/dashboard/apps/${clientId}/rotate-secret`, { csrf })
    assert.equal(rotated.status, 200)
    const newSecret = /id="client-secret">([^<]+)</.exec(await rotated.text())![1]
    assert.notEqual(newSecret, oldSecret)
    assert.equal(await secretWorks(clientId, oldSecret), false)
    assert.equal(await secretWorks(clientId, newSecret), true)
  })

  it('refuses dashboard forms without the CSRF token', async () => {
    const res = await browser.post('/dashboard/apps', { name: 'No CSRF', redirect_uris: 'https://x.example/cb' })
    assert.equal(res.status, 403)
  })

  it("shows another org's app as not found", async () => {
    const other = await createMerchant(apps.app, { name: 'Other' })
    const otherBrowser = new Browser(apps.appUrl)
    await otherBrowser.signIn(other.email, other.password)
    const otherCsrf = hiddenValue(await (await otherBrowser.get('/dashboard/apps')).text(), 'csrf')
    const created = await (
      await otherBrowser.post('/dashboard/apps', {
        csrf: otherCsrf,
        name: 'Theirs',
        redirect_uris: 'https://t.example/cb',
      })
    ).text()
    const theirs = /<code id="client-id">([^<]+)<\/code>/.exec(created)![1]
    assert.equal((await browser.get(`/dashboard/apps/${theirs}`)).status, 404)
    assert.equal((await browser.post(`/dashboard/apps/${theirs}/rotate-secret`, { csrf })).status, 404)
    assert.equal(
      (await browser.post(`/dashboard/apps/${theirs}`, { csrf, redirect_uris: 'https://mine.example/cb' })).status,
      404,
    )
  })

  it('keeps staff out of app management', async () => {
    const email = `staff-${Date.now()}@example.test`
    await apps.app.runtime.database.transaction(merchant.orgId, (q) =>
      apps.app.services.auth.createUser(q, { orgId: merchant.orgId, email, role: 'staff', password: 'staff-password' }),
    )
    const staff = new Browser(apps.appUrl)
    assert.equal((await staff.signIn(email, 'staff-password')).status, 303)
    assert.equal((await staff.get('/dashboard/apps')).status, 403)
    assert.equal((await staff.get('/dashboard/connected')).status, 403)
  })

  it('signs out, after which the dashboard asks to sign in again', async () => {
    const out = await browser.post('/logout', { csrf })
    assert.equal(out.status, 303)
    assert.equal((await browser.get('/dashboard/apps')).status, 303)
  })
})
