import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type Merchant } from '../../support/harness.ts'
import { authorizeUrl, type ListeningApps, startListeningApps } from '../../support/web.ts'

const REDIRECT = 'https://partner.example/callback'

describe('partner apps: client credentials and tenant connections', () => {
  let apps: ListeningApps
  let partner: Merchant
  let tenant: Merchant
  let partnerApp: { id: string; secret: string }
  let plainApp: { id: string; secret: string }

  before(async () => {
    apps = await startListeningApps()
    partner = await createMerchant(apps.app, { name: 'Reseller' })
    tenant = await createMerchant(apps.app, { name: 'Tenant Shop' })
    const ctx = systemContext(apps.app.runtime.database, partner.orgId, MERCHANT_SCOPES)
    const p = await apps.app.services.oauth.apps.create(ctx, {
      name: 'Reseller Console',
      redirectUris: [REDIRECT],
      allowedScopes: ['catalog:read', 'catalog:write', 'orders:read'],
      partner: true,
    })
    partnerApp = { id: p.app.client_id, secret: p.clientSecret! }
    const n = await apps.app.services.oauth.apps.create(ctx, { name: 'Plain', redirectUris: [REDIRECT] })
    plainApp = { id: n.app.client_id, secret: n.clientSecret! }
  })
  after(() => apps.close())

  const cc = (client: { id: string; secret: string }, extra: Record<string, string> = {}) =>
    clientFor(apps.app.api).post('/api/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
      ...extra,
    })

  const connect = (clientId: string, scopes: string[]) =>
    apps.app.runtime.database.transaction(tenant.orgId, (q) =>
      apps.app.services.oauth.connectApp(q, { orgId: tenant.orgId, clientId, scopes }),
    )

  it('gives a partner app a partners:write token for its own org, without a refresh token', async () => {
    const res = await cc(partnerApp)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.org_id, partner.orgId)
    assert.equal(res.body.scope, 'partners:write catalog:read catalog:write orders:read')
    assert.equal(res.body.refresh_token, undefined)
    assert.equal((await clientFor(apps.app.api, res.body.access_token).get('/api/v1/products')).status, 200)
    const narrow = await cc(partnerApp, { scope: 'partners:write' })
    assert.equal(narrow.body.scope, 'partners:write')
    const wide = await cc(partnerApp, { scope: 'payments:write' })
    assert.equal(wide.status, 400)
    assert.equal(wide.body.error, 'invalid_scope')
  })

  it('refuses client credentials to an app that is not a partner app', async () => {
    const res = await cc(plainApp)
    assert.equal(res.status, 400)
    assert.equal(res.body.error, 'unauthorized_client')
  })

  it("refuses a tenant token until the partner is connected, then gives the connection's scopes", async () => {
    const before = await cc(partnerApp, { org_id: tenant.orgId })
    assert.equal(before.status, 400)
    assert.equal(before.body.error, 'invalid_grant')

    const { grantId } = await connect(partnerApp.id, ['catalog:read'])
    assert.match(grantId, /^grant_/)
    const res = await cc(partnerApp, { org_id: tenant.orgId })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.org_id, tenant.orgId)
    assert.equal(res.body.scope, 'catalog:read')
    const authed = clientFor(apps.app.api, res.body.access_token)
    assert.equal((await authed.get('/api/v1/products')).status, 200)
    const write = await authed.post('/api/v1/products', { name: 'x', sku: 'x-partner' })
    assert.equal(write.status, 403)

    const partnerCtx = systemContext(apps.app.runtime.database, partner.orgId, MERCHANT_SCOPES)
    const orgs = await apps.app.services.oauth.listConnectedOrgs(partnerCtx, partnerApp.id)
    assert.deepEqual(
      orgs.map((o) => [o.orgId, o.grantId, o.scopes]),
      [[tenant.orgId, grantId, ['catalog:read']]],
    )
  })

  it("hides a partner app's connections from other orgs", async () => {
    const tenantCtx = systemContext(apps.app.runtime.database, tenant.orgId, MERCHANT_SCOPES)
    await assert.rejects(apps.app.services.oauth.listConnectedOrgs(tenantCtx, partnerApp.id), /not found/)
  })

  it('refuses to connect an app that is not a partner app, or beyond its allowed scopes', async () => {
    await assert.rejects(connect(plainApp.id, ['catalog:read']), (e: { status?: number }) => e.status === 422)
    await assert.rejects(connect(partnerApp.id, ['payments:write']), (e: { status?: number }) => e.status === 422)
    await assert.rejects(connect(partnerApp.id, ['partners:write']), (e: { status?: number }) => e.status === 422)
  })

  it('cuts the partner off from the tenant when the tenant disconnects it', async () => {
    const res = await cc(partnerApp, { org_id: tenant.orgId })
    assert.equal(res.status, 200)
    const tenantCtx = systemContext(apps.app.runtime.database, tenant.orgId, MERCHANT_SCOPES)
    const connected = await apps.app.services.oauth.grants.listConnections(tenantCtx)
    assert.deepEqual(
      connected.map((c) => [c.client_id, c.partner]),
      [[partnerApp.id, true]],
    )
    await apps.app.services.oauth.grants.disconnect(tenantCtx, partnerApp.id)
    assert.equal((await clientFor(apps.app.api, res.body.access_token).get('/api/v1/products')).status, 401)
    const again = await cc(partnerApp, { org_id: tenant.orgId })
    assert.equal(again.body.error, 'invalid_grant')
    const partnerCtx = systemContext(apps.app.runtime.database, partner.orgId, MERCHANT_SCOPES)
    assert.deepEqual(await apps.app.services.oauth.listConnectedOrgs(partnerCtx, partnerApp.id), [])
  })

  it('never lets partners:write through the consent screen', async () => {
    const res = await fetch(
      authorizeUrl(apps.appUrl, {
        response_type: 'code',
        client_id: partnerApp.id,
        redirect_uri: REDIRECT,
        scope: 'partners:write',
        state: 'z',
      }),
      { redirect: 'manual' },
    )
    assert.equal(res.status, 303)
    const location = new URL(res.headers.get('location')!)
    assert.equal(location.searchParams.get('error'), 'invalid_scope')
    assert.equal(location.searchParams.get('state'), 'z')
  })

  it('shares one grant row among its client-credentials tokens; revoking one ends them all, the next starts anew', async () => {
    const grants = () =>
      apps.app.runtime.database.transaction(partner.orgId, async (q) => {
        const { rows } = await q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM oauth_grants WHERE org_id = $1 AND client_id = $2 AND kind = 'client_credentials'`,
          [partner.orgId, partnerApp.id],
        )
        return rows[0].n
      })
    const first = await cc(partnerApp)
    const before = await grants()
    const tokens = [first.body.access_token as string]
    for (let i = 0; i < 5; i++) tokens.push((await cc(partnerApp)).body.access_token)
    assert.equal(await grants(), before, 'six tokens, no new grant row')
    const revoked = await clientFor(apps.app.api).post('/api/v1/oauth/revoke', {
      token: tokens[0],
      client_id: partnerApp.id,
      client_secret: partnerApp.secret,
    })
    assert.equal(revoked.status, 200)
    assert.equal(revoked.raw.body, '', 'RFC 7009: an empty body, not null')
    for (const token of tokens) assert.equal((await clientFor(apps.app.api, token).get('/api/v1/products')).status, 401)
    const next = await cc(partnerApp)
    assert.equal((await clientFor(apps.app.api, next.body.access_token).get('/api/v1/products')).status, 200)
    assert.equal(await grants(), before + 1)
  })
})
