import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant } from '../../support/harness.ts'
import { invitedAndSignedIn, type Person } from '../../support/people.ts'
import { Browser, hiddenValue, type ListeningApps, startListeningApps } from '../../support/web.ts'

/**
 * How the back office reaches the API: the web session's cookie stays HttpOnly on APP_URL, the page gets
 * short-lived access tokens of its API session from POST /dashboard/session (this origin only), and the API
 * allows APP_URL, and no other origin, by CORS (docs/decisions.md "The back office").
 */
describe('the back office session: tokens from the web session, CORS for APP_URL alone', () => {
  let apps: ListeningApps
  let owner: Merchant
  let manager: Person

  before(async () => {
    apps = await startListeningApps()
    owner = await createMerchant(apps.app)
    manager = await invitedAndSignedIn(apps.app, clientFor(apps.app.api, owner.token), 'manager')
  })
  after(() => apps.close())

  const askToken = (browser: Browser, origin?: string) =>
    browser.request('POST', '/dashboard/session', undefined, {
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: '{}',
    })
  const me = (token: string) =>
    fetch(`${apps.baseUrl}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}`, origin: apps.appUrl } })

  it('sends a visitor without a session to sign in, and serves the signed-in page under a strict policy', async () => {
    const browser = new Browser(apps.appUrl)
    const away = await browser.get('/dashboard/orders?status=open')
    assert.equal(away.status, 303)
    assert.equal(
      away.headers.get('location'),
      `/login?return_to=${encodeURIComponent('/dashboard/orders?status=open')}`,
    )
    assert.equal((await askToken(browser, apps.appUrl)).status, 401)

    assert.equal((await browser.signIn(owner.email, owner.password)).status, 303)
    const page = await browser.get('/dashboard/orders?status=open')
    assert.equal(page.status, 200)
    const policy = page.headers.get('content-security-policy') ?? ''
    assert.match(policy, /script-src 'self';/)
    assert.match(policy, new RegExp(`connect-src 'self' ${apps.baseUrl}`))
    assert.doesNotMatch(policy, /unsafe/)
    const html = await page.text()
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    assert.ok(script, 'the page loads its script from this origin')
    const asset = await browser.get(script)
    assert.equal(asset.status, 200)
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/)
    // The server-rendered pages beside it keep their own routes.
    assert.equal((await browser.get('/dashboard/apps')).status, 200)
  })

  it('hands this origin a short-lived token of the session, refuses other origins, and the API takes it', async () => {
    const browser = new Browser(apps.appUrl)
    await browser.signIn(owner.email, owner.password)
    assert.equal((await askToken(browser)).status, 403, 'no Origin')
    assert.equal((await askToken(browser, 'https://evil.example')).status, 403)
    const granted = await askToken(browser, apps.appUrl)
    assert.equal(granted.status, 200)
    assert.equal(granted.headers.get('cache-control'), 'no-store')
    const grant = await granted.json()
    assert.equal(grant.api_url, apps.baseUrl)
    assert.equal(grant.email, owner.email)
    assert.ok(grant.scopes.includes('reports:read'))
    assert.ok(grant.expires_in > 0 && grant.expires_in <= 3600)
    assert.equal(grant.refresh_token, undefined, 'no refresh token reaches the page')
    const answer = await me(grant.access_token)
    assert.equal(answer.status, 200)
    assert.equal((await answer.json()).data.email, owner.email)
    assert.equal(answer.headers.get('access-control-allow-origin'), apps.appUrl)
  })

  it('allows APP_URL by CORS, without credentials, and no other origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${apps.baseUrl}/api/v1/orders`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      })
    const allowed = await preflight(apps.appUrl)
    assert.equal(allowed.status, 204)
    assert.equal(allowed.headers.get('access-control-allow-origin'), apps.appUrl)
    assert.match(allowed.headers.get('access-control-allow-methods') ?? '', /POST/)
    assert.equal(allowed.headers.get('access-control-allow-credentials'), null)
    const refused = await preflight('https://evil.example')
    assert.equal(refused.headers.get('access-control-allow-origin'), null)
  })

  it('ends the token with the session: signing out, and a deactivation, refuse it at once', async () => {
    const browser = new Browser(apps.appUrl)
    await browser.signIn(owner.email, owner.password)
    const { access_token: token } = await (await askToken(browser, apps.appUrl)).json()
    const page = await (await browser.get('/dashboard/apps')).text()
    assert.equal((await browser.post('/logout', { csrf: hiddenValue(page, 'csrf') })).status, 303)
    assert.equal((await me(token)).status, 401)
    assert.equal((await askToken(browser, apps.appUrl)).status, 401)

    const managers = new Browser(apps.appUrl)
    await managers.signIn(manager.email, manager.password)
    const { access_token: managerToken } = await (await askToken(managers, apps.appUrl)).json()
    assert.equal((await me(managerToken)).status, 200)
    const off = await clientFor(apps.app.api, owner.token).patch(`/api/v1/users/${manager.id}`, { active: false })
    assert.equal(off.status, 200, JSON.stringify(off.body))
    assert.equal((await me(managerToken)).status, 401)
    assert.equal((await askToken(managers, apps.appUrl)).status, 401)
  })
})
