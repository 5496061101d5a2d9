import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

describe('login sessions', () => {
  let app: TestApp
  let merchant: Merchant
  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('logs in with SPEC shape and a 900 s ES256 access token', async () => {
    const res = await clientFor(app.api).post('/api/v1/auth/login', {
      email: merchant.email,
      password: merchant.password,
    })
    assert.equal(res.status, 200)
    const { data } = res.body
    assert.equal(data.expiresIn, 900)
    assert.deepEqual(Object.keys(data).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'user'])
    assert.deepEqual(data.user, { id: merchant.userId, email: merchant.email, orgId: merchant.orgId })
    const header = JSON.parse(Buffer.from(data.accessToken.split('.')[0], 'base64url').toString())
    assert.equal(header.alg, 'ES256')
    assert.equal(header.typ, 'at+jwt')
    assert.ok(header.kid)
    const claims = JSON.parse(Buffer.from(data.accessToken.split('.')[1], 'base64url').toString())
    assert.equal(claims.org_id, merchant.orgId)
    assert.equal(claims.exp - claims.iat, 900)
    assert.ok(claims.iss && claims.aud)
  })

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const api = clientFor(app.api)
    const wrong = await api.post('/api/v1/auth/login', { email: merchant.email, password: 'nope' })
    const unknown = await api.post('/api/v1/auth/login', { email: 'nobody@example.test', password: 'nope' })
    assert.equal(wrong.status, 401)
    assert.equal(unknown.status, 401)
    assert.equal(wrong.body.detail, unknown.body.detail)
    assert.equal(wrong.headers['content-type'], 'application/problem+json; charset=utf-8')
  })

  it('returns the user from /auth/me', async () => {
    const res = await clientFor(app.api, merchant.token).get('/api/v1/auth/me')
    assert.equal(res.status, 200)
    assert.equal(res.body.data.email, merchant.email)
    assert.equal(res.body.data.role, 'owner')
  })

  it('rotates refresh tokens and revokes the family when a used one comes back', async () => {
    const api = clientFor(app.api)
    const login = await api.post('/api/v1/auth/login', { email: merchant.email, password: merchant.password })
    const first = login.body.data.refreshToken
    const rotated = await api.post('/api/v1/auth/refresh', { refreshToken: first })
    assert.equal(rotated.status, 200)
    assert.notEqual(rotated.body.data.refreshToken, first)
    const newAccess = rotated.body.data.accessToken
    assert.equal((await clientFor(app.api, newAccess).get('/api/v1/auth/me')).status, 200)

    const replay = await api.post('/api/v1/auth/refresh', { refreshToken: first })
    assert.equal(replay.status, 401)
    // The whole family is gone: the latest refresh token and the access tokens derived from it.
    assert.equal((await api.post('/api/v1/auth/refresh', { refreshToken: rotated.body.data.refreshToken })).status, 401)
    const me = await clientFor(app.api, newAccess).get('/api/v1/auth/me')
    assert.equal(me.status, 401)
    assert.match(String(me.headers['www-authenticate']), /invalid_token/)
  })

  it('lets exactly one of two parallel refreshes with one token succeed', async () => {
    const api = clientFor(app.api)
    const login = await api.post('/api/v1/auth/login', { email: merchant.email, password: merchant.password })
    const token = login.body.data.refreshToken
    const results = await Promise.all([
      api.post('/api/v1/auth/refresh', { refreshToken: token }),
      api.post('/api/v1/auth/refresh', { refreshToken: token }),
    ])
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401])
  })

  it('logs out at once: the access token and the refresh token stop working', async () => {
    const api = clientFor(app.api)
    const login = await api.post('/api/v1/auth/login', { email: merchant.email, password: merchant.password })
    const { accessToken, refreshToken } = login.body.data
    const authed = clientFor(app.api, accessToken)
    assert.equal((await authed.post('/api/v1/auth/logout')).status, 204)
    assert.equal((await authed.get('/api/v1/auth/me')).status, 401)
    assert.equal((await api.post('/api/v1/auth/refresh', { refreshToken })).status, 401)
  })

  it('refuses requests without a token, with a malformed token, and with a forged one', async () => {
    assert.equal((await clientFor(app.api).get('/api/v1/products')).status, 401)
    assert.equal((await clientFor(app.api, 'not-a-jwt').get('/api/v1/products')).status, 401)
    const [h, p] = merchant.token.split('.')
    const forged = `${h}.${p}.${Buffer.from('x'.repeat(64)).toString('base64url')}`
    assert.equal((await clientFor(app.api, forged).get('/api/v1/products')).status, 401)
  })

  it('gives staff the scopes of their role and answers 403 insufficient_scope beyond them', async () => {
    const email = `staff-${Date.now()}@example.test`
    await app.runtime.database.transaction(merchant.orgId, (q) =>
      app.services.auth.createUser(q, { orgId: merchant.orgId, email, role: 'staff', password: 'staff-password' }),
    )
    const login = await clientFor(app.api).post('/api/v1/auth/login', { email, password: 'staff-password' })
    const staff = clientFor(app.api, login.body.data.accessToken)
    assert.equal((await staff.get('/api/v1/products')).status, 200)
    const write = await staff.post('/api/v1/products', { name: 'x', sku: 'staff-x' })
    assert.equal(write.status, 403)
    assert.match(String(write.headers['www-authenticate']), /insufficient_scope/)
    assert.equal(write.body.type, 'https://errors.opentill.dev/forbidden')
  })
})
