import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { NOT_STORED } from '../../../src/platform/http/idempotency.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, loginAs, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/** `/apps` and `/connected-apps`: a store's owner registers apps and lets go of connected ones through the API. */
describe('apps and connected apps over REST, for owners', () => {
  let app: TestApp
  let owner: Merchant
  let api: ReturnType<typeof clientFor>

  before(async () => {
    app = await startTestApp()
    owner = await createMerchant(app)
    api = clientFor(app.api, owner.token)
  })
  after(() => app.close())

  it('registers an app with no scopes unless given, shows its secret once, edits it and rotates the secret', async () => {
    const made = await api.post('/api/v1/apps', { name: 'Xero bridge', redirect_uris: ['https://bridge.example/cb'] })
    assert.equal(made.status, 201, JSON.stringify(made.body))
    assert.deepEqual(made.body.data.allowed_scopes, [])
    assert.equal(made.body.data.client_type, 'confidential')
    assert.match(made.body.client_secret, /^ots_/)
    const id = made.body.data.client_id
    const read = await api.get(`/api/v1/apps/${id}`)
    assert.equal(read.body.client_secret, undefined)
    assert.ok((await api.get('/api/v1/apps')).body.data.some((a: { client_id: string }) => a.client_id === id))
    const edited = await api.patch(`/api/v1/apps/${id}`, { allowed_scopes: ['catalog:read', 'orders:read'] })
    assert.equal(edited.status, 200, JSON.stringify(edited.body))
    assert.deepEqual(edited.body.data.allowed_scopes, ['catalog:read', 'orders:read'])
    const rotated = await api.post(`/api/v1/apps/${id}/rotate-secret`)
    assert.equal(rotated.status, 200)
    assert.notEqual(rotated.body.client_secret, made.body.client_secret)

    // A replay of the registration (the same Idempotency-Key) answers as before but without the secret.
    const key = { 'idempotency-key': 'register-once' }
    const body = { name: 'Replayed', redirect_uris: ['https://replayed.example/cb'] }
    const once = await api.post('/api/v1/apps', body, key)
    const again = await api.post('/api/v1/apps', body, key)
    assert.match(once.body.client_secret, /^ots_/)
    assert.equal(again.body.data.client_id, once.body.data.client_id)
    assert.equal(again.body.client_secret, NOT_STORED)

    const bad = await api.post('/api/v1/apps', {
      name: 'Bad',
      redirect_uris: ['http://evil.example/cb'],
      allowed_scopes: ['apps:write'],
    })
    assert.equal(bad.status, 422)
    const pub = await api.post('/api/v1/apps', {
      name: 'Phone app',
      redirect_uris: ['https://phone.example/cb'],
      client_type: 'public',
    })
    assert.equal(pub.body.client_secret, null)
    assert.equal((await api.post(`/api/v1/apps/${pub.body.data.client_id}/rotate-secret`)).status, 422)
    assert.equal((await api.get('/api/v1/apps/app_missing')).status, 404)
  })

  it('is for owners alone: managers and staff are refused, and no app can be given the scope', async () => {
    for (const role of ['manager', 'staff'] as const) {
      const someone = (await loginAs(app, owner.orgId, role)).api
      assert.equal((await someone.get('/api/v1/apps')).status, 403, role)
      assert.equal((await someone.get('/api/v1/connected-apps')).status, 403, role)
    }
    assert.ok(!(MERCHANT_SCOPES as readonly string[]).includes('apps:write'))
  })

  it('lists the apps the store let in and disconnects one, whose token is then refused', async () => {
    const ctx = systemContext(app.runtime.database, owner.orgId, MERCHANT_SCOPES)
    const registered = await app.services.oauth.apps.create(ctx, {
      name: 'Setup partner',
      redirectUris: ['https://partner.example/cb'],
      allowedScopes: ['catalog:read'],
      partner: true,
    })
    const clientId = registered.app.client_id
    const { grantId } = await app.runtime.database.transaction(owner.orgId, (q) =>
      app.services.oauth.connectApp(q, { orgId: owner.orgId, clientId, scopes: ['catalog:read'] }),
    )
    const token = await app.runtime.accessTokens.sign({
      sub: clientId,
      orgId: owner.orgId,
      scopes: ['catalog:read'],
      sid: grantId,
      clientId,
      actorKind: 'app',
      userId: null,
    })
    const partner = clientFor(app.api, token)
    assert.equal((await partner.get('/api/v1/products')).status, 200)
    const connected = (await api.get('/api/v1/connected-apps')).body.data
    assert.deepEqual(
      connected.map((c: { client_id: string; partner: boolean; scopes: string[] }) => [
        c.client_id,
        c.partner,
        c.scopes,
      ]),
      [[clientId, true, ['catalog:read']]],
    )
    assert.equal((await api.delete(`/api/v1/connected-apps/${clientId}`)).status, 204)
    assert.equal((await partner.get('/api/v1/products')).status, 401)
    assert.deepEqual((await api.get('/api/v1/connected-apps')).body.data, [])
    assert.equal((await api.delete(`/api/v1/connected-apps/${clientId}`)).status, 404)
  })
})
