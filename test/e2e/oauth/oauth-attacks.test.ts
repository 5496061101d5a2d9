import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { type Call, clientFor, createMerchant, type Merchant } from '../../support/harness.ts'
import { authorizeUrl, Browser, type ListeningApps, startListeningApps } from '../../support/web.ts'

const REDIRECT = 'https://partner.example/callback'

const verifier = () => randomBytes(32).toString('base64url')
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url')

describe('OAuth attacks of RFC 9700 get nowhere', () => {
  let apps: ListeningApps
  let merchant: Merchant
  let other: Merchant
  let confidential: { id: string; secret: string }
  let second: { id: string; secret: string }
  let publicApp: string
  let browser: Browser

  before(async () => {
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    other = await createMerchant(apps.app, { name: 'Other Shop' })
    const developer = await createMerchant(apps.app, { name: 'Developer' })
    const ctx = systemContext(apps.app.runtime.database, developer.orgId, MERCHANT_SCOPES)
    const make = async (name: string, isPublic = false) => {
      const { app, clientSecret } = await apps.app.services.oauth.apps.create(ctx, {
        name,
        redirectUris: [REDIRECT],
        allowedScopes: ['catalog:read', 'orders:read'],
        public: isPublic,
      })
      return { id: app.client_id, secret: clientSecret ?? '' }
    }
    confidential = await make('Main App')
    second = await make('Second App')
    publicApp = (await make('Mobile App', true)).id
    browser = new Browser(apps.appUrl)
    assert.equal((await browser.signIn(merchant.email, merchant.password)).status, 303)
  })
  after(() => apps.close())

  const api = () => clientFor(apps.app.api)
  const token = (body: Record<string, string>, headers: Record<string, string> = {}): Promise<Call> =>
    api().post('/api/v1/oauth/token', body, headers)
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  })

  /** A code from the real consent screen. */
  async function code(clientId: string, pkce: { challenge?: string; method?: string } = {}, scope = 'catalog:read') {
    const callback = await browser.consent(
      authorizeUrl(apps.appUrl, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        scope,
        state: 'st-1',
        code_challenge: pkce.challenge,
        code_challenge_method: pkce.method,
      }),
    )
    assert.equal(callback.searchParams.get('iss'), apps.baseUrl)
    assert.equal(callback.searchParams.get('state'), 'st-1')
    const value = callback.searchParams.get('code')
    assert.ok(value, `expected a code, got ${callback}`)
    return value
  }

  const exchange = (c: string, extra: Record<string, string> = {}, client = confidential) =>
    token({
      grant_type: 'authorization_code',
      code: c,
      redirect_uri: REDIRECT,
      client_id: client.id,
      client_secret: client.secret,
      ...extra,
    })

  function assertOAuthError(res: Call, status: number, error: string) {
    assert.equal(res.status, status, JSON.stringify(res.body))
    assert.equal(res.body.error, error)
    assert.equal(typeof res.body.error_description, 'string')
    assert.equal(res.headers['cache-control'], 'no-store')
  }

  it('accepts a form-encoded request with HTTP Basic and answers no-store', async () => {
    const c = await code(confidential.id)
    const res = await apps.app.api.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(confidential.id, confidential.secret) },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT }).toString(),
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.deepEqual(Object.keys(res.json()).sort(), [
      'access_token',
      'expires_in',
      'org_id',
      'refresh_token',
      'scope',
      'token_type',
    ])
  })

  it('refuses a replayed code and revokes what the first exchange issued', async () => {
    const c = await code(confidential.id)
    const first = await exchange(c)
    assert.equal(first.status, 200)
    assertOAuthError(await exchange(c), 400, 'invalid_grant')
    assert.equal((await clientFor(apps.app.api, first.body.access_token).get('/api/v1/products')).status, 401)
    assertOAuthError(
      await token({
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: confidential.id,
        client_secret: confidential.secret,
      }),
      400,
      'invalid_grant',
    )
  })

  it('refuses a wrong PKCE verifier and burns the code', async () => {
    const v = verifier()
    const c = await code(confidential.id, { challenge: challengeOf(v), method: 'S256' })
    assertOAuthError(await exchange(c, { code_verifier: verifier() }), 400, 'invalid_grant')
    assertOAuthError(await exchange(c, { code_verifier: v }), 400, 'invalid_grant')
  })

  it('requires the verifier when the request had a challenge, and accepts the right one', async () => {
    const v = verifier()
    const c = await code(confidential.id, { challenge: challengeOf(v), method: 'S256' })
    assertOAuthError(await exchange(c), 400, 'invalid_grant')
    const v2 = verifier()
    const c2 = await code(confidential.id, { challenge: challengeOf(v2), method: 'S256' })
    assert.equal((await exchange(c2, { code_verifier: v2 })).status, 200)
  })

  it('refuses a verifier for a code issued without a challenge', async () => {
    const c = await code(confidential.id)
    assertOAuthError(await exchange(c, { code_verifier: verifier() }), 400, 'invalid_grant')
  })

  it('refuses the plain method and a challenge without a method at the authorization endpoint', async () => {
    for (const method of ['plain', undefined]) {
      const callback = await browser.consent(
        authorizeUrl(apps.appUrl, {
          response_type: 'code',
          client_id: confidential.id,
          redirect_uri: REDIRECT,
          scope: 'catalog:read',
          state: 's',
          code_challenge: challengeOf(verifier()),
          code_challenge_method: method,
        }),
      )
      assert.equal(callback.searchParams.get('error'), 'invalid_request')
      assert.equal(callback.searchParams.get('state'), 's')
      assert.equal(callback.searchParams.get('code'), null)
    }
  })

  it('refuses a public client without PKCE and lets it in with PKCE and no secret', async () => {
    const refused = await browser.consent(
      authorizeUrl(apps.appUrl, {
        response_type: 'code',
        client_id: publicApp,
        redirect_uri: REDIRECT,
        scope: 'catalog:read',
      }),
    )
    assert.equal(refused.searchParams.get('error'), 'invalid_request')
    const v = verifier()
    const c = await code(publicApp, { challenge: challengeOf(v), method: 'S256' })
    const res = await token({
      grant_type: 'authorization_code',
      code: c,
      redirect_uri: REDIRECT,
      client_id: publicApp,
      code_verifier: v,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
  })

  it('refuses a redirect_uri that differs from the authorization request', async () => {
    const c = await code(confidential.id)
    assertOAuthError(await exchange(c, { redirect_uri: 'https://partner.example/callback/' }), 400, 'invalid_grant')
  })

  it('refuses a code presented by another client, without burning it for its owner', async () => {
    const c = await code(confidential.id)
    assertOAuthError(await exchange(c, {}, second), 400, 'invalid_grant')
    assert.equal((await exchange(c)).status, 200)
  })

  it('answers invalid_client 401 for a wrong secret, an unknown client and mixed authentication', async () => {
    const c = await code(confidential.id)
    assertOAuthError(await exchange(c, { client_secret: 'ots_wrong' }), 401, 'invalid_client')
    assertOAuthError(await exchange(c, { client_id: 'app_unknown' }), 401, 'invalid_client')
    const wrongBasic = await token(
      { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT },
      basic(confidential.id, 'nope'),
    )
    assertOAuthError(wrongBasic, 401, 'invalid_client')
    assert.match(String(wrongBasic.headers['www-authenticate']), /^Basic/)
    const both = await token(
      { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_secret: confidential.secret },
      basic(confidential.id, confidential.secret),
    )
    assertOAuthError(both, 400, 'invalid_request')
    assertOAuthError(
      await token({ grant_type: 'password', client_id: confidential.id, client_secret: confidential.secret }),
      400,
      'unsupported_grant_type',
    )
    assertOAuthError(await token({ client_id: confidential.id }), 400, 'invalid_request')
  })

  it('revokes the whole family when a superseded refresh token comes back', async () => {
    const issued = (await exchange(await code(confidential.id))).body
    const refresh = (rt: string) =>
      token({
        grant_type: 'refresh_token',
        refresh_token: rt,
        client_id: confidential.id,
        client_secret: confidential.secret,
      })
    const rotated = await refresh(issued.refresh_token)
    assert.equal(rotated.status, 200)
    assertOAuthError(await refresh(issued.refresh_token), 400, 'invalid_grant')
    assertOAuthError(await refresh(rotated.body.refresh_token), 400, 'invalid_grant')
    assert.equal((await clientFor(apps.app.api, rotated.body.access_token).get('/api/v1/products')).status, 401)
  })

  it('lets exactly one of two parallel refreshes succeed', async () => {
    const issued = (await exchange(await code(confidential.id))).body
    const refresh = () =>
      token({
        grant_type: 'refresh_token',
        refresh_token: issued.refresh_token,
        client_id: confidential.id,
        client_secret: confidential.secret,
      })
    const results = await Promise.all([refresh(), refresh()])
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400])
  })

  it('refuses a refresh token presented by another client', async () => {
    const issued = (await exchange(await code(confidential.id))).body
    const res = await token({
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
      client_id: second.id,
      client_secret: second.secret,
    })
    assertOAuthError(res, 400, 'invalid_grant')
  })

  it("confines a token to its org: another org's product is a 404", async () => {
    const product = await clientFor(apps.app.api, other.token).post('/api/v1/products', {
      name: 'Theirs',
      sku: `T-${Date.now()}`,
    })
    assert.equal(product.status, 201)
    const issued = (await exchange(await code(confidential.id))).body
    assert.equal(issued.org_id, merchant.orgId)
    const res = await clientFor(apps.app.api, issued.access_token).get(`/api/v1/products/${product.body.data.id}`)
    assert.equal(res.status, 404)
  })

  it('answers 403 insufficient_scope beyond the granted scope', async () => {
    const issued = (await exchange(await code(confidential.id))).body
    const res = await clientFor(apps.app.api, issued.access_token).post('/api/v1/products', { name: 'x', sku: 'x-1' })
    assert.equal(res.status, 403)
    assert.match(String(res.headers['www-authenticate']), /insufficient_scope/)
  })

  it('cuts an app off at once when the merchant disconnects it', async () => {
    const issued = (await exchange(await code(confidential.id))).body
    const authed = clientFor(apps.app.api, issued.access_token)
    assert.equal((await authed.get('/api/v1/products')).status, 200)
    const page = await browser.get('/dashboard/connected')
    const html = await page.text()
    assert.match(html, /Main App/)
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]
    const disconnected = await browser.post(`/dashboard/connected/${confidential.id}/disconnect`, { csrf })
    assert.equal(disconnected.status, 303)
    const after = await authed.get('/api/v1/products')
    assert.equal(after.status, 401)
    assert.match(String(after.headers['www-authenticate']), /invalid_token/)
    assertOAuthError(
      await token({
        grant_type: 'refresh_token',
        refresh_token: issued.refresh_token,
        client_id: confidential.id,
        client_secret: confidential.secret,
      }),
      400,
      'invalid_grant',
    )
    assert.doesNotMatch(await (await browser.get('/dashboard/connected')).text(), /Main App/)
  })

  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect URI', async () => {
    const unknown = await browser.get(
      authorizeUrl(apps.appUrl, {
        response_type: 'code',
        client_id: 'app_nope',
        redirect_uri: REDIRECT,
        scope: 'catalog:read',
      }),
    )
    assert.equal(unknown.status, 400)
    assert.equal(unknown.headers.get('location'), null)
    const tampered = await browser.get(
      authorizeUrl(apps.appUrl, {
        response_type: 'code',
        client_id: confidential.id,
        redirect_uri: 'https://evil.example/callback',
        scope: 'catalog:read',
      }),
    )
    assert.equal(tampered.status, 400)
    assert.equal(tampered.headers.get('location'), null)
    assert.match(tampered.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
  })

  it('refuses a consent POST without the CSRF token', async () => {
    const res = await browser.post('/oauth/authorize', {
      response_type: 'code',
      client_id: confidential.id,
      redirect_uri: REDIRECT,
      scope: 'catalog:read',
      decision: 'approve',
    })
    assert.equal(res.status, 403)
    assert.equal(res.headers.get('location'), null)
  })
})
