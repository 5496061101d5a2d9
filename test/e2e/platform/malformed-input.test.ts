import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/** Issue 14 item 15: a NUL character reached PostgreSQL and answered 500; the validator now refuses it everywhere. */
describe('a NUL character in any string of a request', () => {
  let app: TestApp
  let merchant: Merchant

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('is a 422 naming the field in a body, and nothing is written', async () => {
    const api = clientFor(app.api, merchant.token)
    const replay = await api.post('/api/v1/webhooks/failed/replay', { webhook_id: '\u0000' })
    assert.equal(replay.status, 422)
    assert.match(String(replay.headers['content-type']), /application\/problem\+json/)
    assert.deepEqual(replay.body.errors, [
      { field: 'webhook_id', message: 'must not contain a NUL character', code: 'no_nul' },
    ])

    const product = await api.post('/api/v1/products', { name: 'Tea', sku: 'T-1', tags: ['ok', 'bad\u0000tag'] })
    assert.equal(product.status, 422)
    assert.equal(product.body.errors[0].field, 'tags.1')
    assert.equal((await api.get('/api/v1/products')).body.data.length, 0)
  })

  // Query strings and path parameters answer 400 like every other malformed one (docs/api-conventions.md).
  it('is a 400 naming the field in a query string and in a path parameter', async () => {
    const api = clientFor(app.api, merchant.token)
    const search = await api.get('/api/v1/products?search=a%00b')
    assert.equal(search.status, 400)
    assert.deepEqual(search.body.errors, [
      { field: 'search', message: 'must not contain a NUL character', code: 'no_nul' },
    ])
    const byId = await api.get('/api/v1/products/prod_%00')
    assert.equal(byId.status, 400)
    assert.equal(byId.body.errors[0].code, 'no_nul')
  })
})

/** Issue 14 item 16: what Fastify itself refuses is an RFC 9457 problem like every other 4xx. */
describe('a JSON body nested too deep', () => {
  let app: TestApp
  let merchant: Merchant

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  // 20,000 nested arrays in 40 KB answered 500 on every JSON route, before sign-in too (the NUL check and the
  // Idempotency-Key's canonical form recursed).
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

  it('is a 400 BODY_TOO_DEEP on every JSON route, before sign-in too, and nothing is written', async () => {
    const api = clientFor(app.api, merchant.token)
    const json = { 'content-type': 'application/json' }
    for (const res of [
      await clientFor(app.api).post('/api/v1/auth/login', nested(20_000), json),
      await api.post('/api/v1/products', nested(20_000), { ...json, 'idempotency-key': 'deep-1' }),
      await api.post('/api/v1/products', `{"name":"Tea","sku":"T-1","tags":${nested(65)}}`, json),
    ]) {
      assert.equal(res.status, 400, JSON.stringify(res.body))
      assert.equal(res.body.code, 'BODY_TOO_DEEP')
      assert.match(res.body.detail, /64 levels/)
    }
    assert.equal((await api.get('/api/v1/products')).body.data.length, 0)
    // The OAuth endpoints answer in RFC 6749's format: invalid_request (it was a 500 server_error).
    for (const path of ['/api/v1/oauth/token', '/api/v1/oauth/revoke']) {
      const res = await clientFor(app.api).post(path, nested(1000), json)
      assert.equal(res.status, 400, path)
      assert.equal(res.body.error, 'invalid_request', path)
    }
  })

  it('lets a body within the limit reach its schema, brackets inside strings not counted', async () => {
    const api = clientFor(app.api, merchant.token)
    const json = { 'content-type': 'application/json' }
    const withinLimit = await api.post('/api/v1/products', `{"name":"Tea","sku":"T-1","tags":${nested(63)}}`, json)
    assert.equal(withinLimit.status, 422)
    assert.equal(withinLimit.body.errors[0].field, 'tags.0')
    const bracketsInText = await api.post('/api/v1/products', { name: '['.repeat(100), sku: 'T-2' })
    assert.equal(bracketsInText.status, 201)
  })
})

describe("Fastify's own refusals", () => {
  let app: TestApp
  let merchant: Merchant

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('answers an over-long path parameter, a path that is not URL encoding and an unknown media type as problems', async () => {
    const api = clientFor(app.api, merchant.token)
    const cases = [
      { res: await api.get(`/api/v1/products/${'x'.repeat(600)}`), status: 414, kind: 'uri-too-long' },
      { res: await api.get('/api/v1/products/%E0%A4%A'), status: 400, kind: 'bad-request' },
      {
        res: await api.post('/api/v1/products', 'name=Tea', { 'content-type': 'text/csv' }),
        status: 415,
        kind: 'unsupported-media-type',
      },
    ]
    for (const { res, status, kind } of cases) {
      assert.equal(res.status, status)
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
      assert.equal(res.body.type, `https://errors.opentill.dev/${kind}`)
      assert.equal(res.body.status, status)
    }
  })
})
