import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import * as oauth from 'oauth4webapi'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { createMerchant, type Merchant } from '../../support/harness.ts'
import { authorizeUrl, Browser, type ListeningApps, startListeningApps } from '../../support/web.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'

describe('OAuth with a real client library (oauth4webapi)', () => {
  let apps: ListeningApps
  let merchant: Merchant
  let as: oauth.AuthorizationServer
  let client: oauth.Client
  let clientAuth: oauth.ClientAuth
  let browser: Browser
  const insecure = { [oauth.allowInsecureRequests]: true }

  before(async () => {
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    const partner = await createMerchant(apps.app, { name: 'Partner Co' })
    const ctx = systemContext(apps.app.runtime.database, partner.orgId, MERCHANT_SCOPES)
    const created = await apps.app.services.oauth.apps.create(ctx, {
      name: 'Stock Sync',
      redirectUris: [REDIRECT],
      allowedScopes: ['catalog:read', 'orders:read'],
    })
    client = { client_id: created.app.client_id }
    clientAuth = oauth.ClientSecretBasic(created.clientSecret!)
    browser = new Browser(apps.appUrl)
    const signedIn = await browser.signIn(merchant.email, merchant.password)
    assert.equal(signedIn.status, 303)
  })
  after(() => apps.close())

  /** Discovery, then the PKCE authorization code flow through the consent screen. */
  async function authorize(scope = 'catalog:read orders:read') {
    const issuer = new URL(apps.baseUrl)
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    )
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = authorizeUrl(apps.appUrl, {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    assert.equal(as.authorization_endpoint, `${apps.appUrl}/oauth/authorize`)
    const callback = await browser.consent(url)
    const params = oauth.validateAuthResponse(as, client, callback, state)
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      REDIRECT,
      verifier,
      insecure,
    )
    return oauth.processAuthorizationCodeResponse(as, client, response)
  }

  it('discovers the server metadata of RFC 8414 with S256 only and the iss parameter', async () => {
    const res = await fetch(`${apps.baseUrl}/.well-known/oauth-authorization-server`)
    const metadata = await res.json()
    assert.equal(metadata.issuer, apps.baseUrl)
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256'])
    assert.equal(metadata.authorization_response_iss_parameter_supported, true)
    assert.equal(metadata.token_endpoint, `${apps.baseUrl}/api/v1/oauth/token`)
    const jwks = await (await fetch(metadata.jwks_uri)).json()
    assert.ok(jwks.keys.length >= 1)
    assert.equal(jwks.keys[0].kty, 'EC')
    assert.equal(jwks.keys[0].d, undefined, 'the JWKS must not leak the private key')
  })

  it('exchanges a PKCE code for the SPEC token response and calls the API with it', async () => {
    const tokens = await authorize()
    assert.equal(tokens.token_type.toLowerCase(), 'bearer')
    assert.equal(tokens.expires_in, 900)
    assert.equal(tokens.scope, 'catalog:read orders:read')
    assert.equal(tokens.org_id, merchant.orgId)
    assert.ok(tokens.refresh_token)
    const products = await fetch(`${apps.baseUrl}/api/v1/products`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    assert.equal(products.status, 200)
    assert.ok(products.headers.get('x-ratelimit-limit'))
  })

  it('grants what the app may have even when the request asks for more', async () => {
    const tokens = await authorize('catalog:read catalog:write')
    assert.equal(tokens.scope, 'catalog:read')
  })

  it('refreshes with rotation, introspects and revokes', async () => {
    const first = await authorize()
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, first.refresh_token!, insecure),
    )
    assert.notEqual(refreshed.refresh_token, first.refresh_token)
    assert.equal(refreshed.org_id, merchant.orgId)

    const active = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, refreshed.access_token, insecure),
    )
    assert.equal(active.active, true)
    assert.equal(active.client_id, client.client_id)
    assert.equal(active.scope, 'catalog:read orders:read')
    const oldRefresh = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, first.refresh_token!, insecure),
    )
    assert.equal(oldRefresh.active, false)

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure),
    )
    const api = await fetch(`${apps.baseUrl}/api/v1/products`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    })
    assert.equal(api.status, 401)
    assert.match(api.headers.get('www-authenticate') ?? '', /invalid_token/)
    const inactive = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, refreshed.access_token, insecure),
    )
    assert.equal(inactive.active, false)
    // Revoking again, or revoking garbage, is still a 200 (RFC 7009 §2.2).
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure),
    )
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, 'not-a-token', insecure),
    )
  })

  it('revokes the grant of an access token, so its refresh token fails with invalid_grant', async () => {
    const tokens = await authorize()
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, tokens.access_token, insecure),
    )
    const api = await fetch(`${apps.baseUrl}/api/v1/products`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    assert.equal(api.status, 401)
    await assert.rejects(
      async () =>
        oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
        ),
      (error: oauth.ResponseBodyError) => error.error === 'invalid_grant',
    )
  })

  it('refuses to refresh a consent older than GRANT_MAX_AGE_S (90 days): the app asks again', async () => {
    let refreshToken = (await authorize()).refresh_token!
    const refresh = () =>
      oauth
        .refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure)
        .then((r) => oauth.processRefreshTokenResponse(as, client, r))
    // 89 days old: still refreshes.
    const age = (days: number) =>
      apps.app.runtime.database.transaction(merchant.orgId, (q) =>
        q.query(
          `UPDATE oauth_grants SET created_at = now() - make_interval(days => $3)
           WHERE org_id = $1 AND client_id = $2 AND kind = 'authorization_code'`,
          [merchant.orgId, client.client_id, days],
        ),
      )
    await age(89)
    const fresh = await refresh()
    refreshToken = fresh.refresh_token!
    await age(91)
    await assert.rejects(refresh, (error: oauth.ResponseBodyError) => error.error === 'invalid_grant')
  })
})
