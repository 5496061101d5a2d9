import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Fastify from 'fastify'
import { authenticate } from '../../../src/platform/http/authenticate.ts'
import { type JsonBody, startTestApp, type TestApp } from '../../support/harness.ts'

describe('the API contract', () => {
  let app: TestApp
  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  it('serves an OpenAPI 3.1 document in which every operation has a response schema', async () => {
    const res = await app.api.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(res.statusCode, 200)
    const doc = res.json()
    assert.equal(doc.openapi, '3.1.0')
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>,
    ).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
    assert.ok(operations.some((o) => o.path === '/api/v1/products' && o.method === 'get'))
    for (const { path, method, op } of operations) {
      const success = Object.entries(op.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status))
      assert.ok(success.length > 0, `${method.toUpperCase()} ${path} declares no success response`)
      for (const [status, response] of success) {
        const { content, description } = response as {
          content?: Record<string, { schema?: unknown }>
          description?: string
        }
        // An empty answer (204, RFC 7009's 200) is declared with a description; @fastify/swagger says
        // "Default Response" only for a route that declared nothing.
        if (!content) {
          assert.notEqual(
            description,
            'Default Response',
            `${method.toUpperCase()} ${path} ${status} declares no schema`,
          )
          continue
        }
        assert.ok(Object.values(content)[0]?.schema, `${method.toUpperCase()} ${path} ${status} has no schema`)
      }
    }
  })

  it("lists the error codes of every problem answer, the route's own and the platform's", async () => {
    const doc = (await app.api.inject({ method: 'GET', url: '/openapi.json' })).json()
    /** The codes a problem answer declares: the enum on `code` of its application/problem+json schema. */
    type ProblemResponse = {
      content?: Record<string, { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }>
    }
    const problemCodes = (response: ProblemResponse | undefined): string[] =>
      response?.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? []
    const codesOf = (path: string, method: string, status: number) =>
      problemCodes(doc.paths[path][method].responses[status])
    assert.deepEqual(codesOf('/api/v1/orders/{id}/status', 'patch', 409).sort(), [
      'ORDER_HAS_PAYMENTS',
      'ORDER_ILLEGAL_MOVE',
      'ORDER_NOT_OPEN',
      'ORDER_NOT_PAID',
      'PROCESSOR_REFUSED',
      'STALE_VERSION',
    ])
    assert.deepEqual(codesOf('/api/v1/orders', 'post', 401), ['UNAUTHORIZED'])
    // A manager's PIN typed to approve a staff member's discount may be locked out.
    assert.deepEqual(codesOf('/api/v1/orders', 'post', 429).sort(), ['PIN_LOCKED', 'RATE_LIMITED'])
    assert.ok(codesOf('/api/v1/orders', 'post', 409).includes('IDEMPOTENCY_KEY_IN_USE'))
    assert.ok(codesOf('/api/v1/orders', 'post', 409).includes('INSUFFICIENT_STOCK'))
    assert.ok(codesOf('/api/v1/products', 'get', 503).includes('DATABASE_UNAVAILABLE'))
    // Every problem answer of the API names its codes.
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, JsonBody>>)) {
      if (!path.startsWith('/api/v1/') || path.startsWith('/api/v1/oauth/')) continue
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, JsonBody>)) {
          if (Number(status) < 400) continue
          assert.ok(problemCodes(response).length > 0, `${method} ${path} ${status} names its codes`)
          assert.equal(response.content['application/json'], undefined, 'a problem is served as problem+json')
          for (const code of problemCodes(response)) assert.match(code, /^[A-Z][A-Z0-9_]*$/)
        }
      }
    }
  })

  it('gives a code generator what it needs: operation ids, optional defaults, headers, scopes', async () => {
    // Before: no operationId, limit required on every list, Idempotency-Key, If-Match and rate-limit headers
    // undeclared, problems documented as application/json, "Default Response" everywhere (issue 23).
    const doc = (await app.api.inject({ method: 'GET', url: '/openapi.json' })).json()
    const operations = Object.entries(doc.paths as Record<string, Record<string, JsonBody>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods)
          .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map(([method, op]) => ({ path, method, op })),
    )
    const ids = operations.map((o) => o.op.operationId)
    assert.ok(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      'every operation has an operationId',
    )
    assert.equal(new Set(ids).size, ids.length, 'operation ids are unique')
    const op = (path: string, method: string) => doc.paths[path][method]
    assert.equal(op('/api/v1/products', 'get').operationId, 'listProducts')
    assert.equal(op('/api/v1/orders/{id}/refund', 'post').operationId, 'refundOrder')
    assert.equal(op('/api/v1/payments/{id}/capture', 'post').operationId, 'capturePayment')
    const limit = op('/api/v1/products', 'get').parameters.find((p: { name: string }) => p.name === 'limit')
    assert.equal(limit.required, false)
    assert.equal(limit.schema.default, 50)
    const refs = (o: { parameters?: { $ref?: string }[] }) => (o.parameters ?? []).map((p) => p.$ref).filter(Boolean)
    assert.ok(refs(op('/api/v1/orders', 'post')).includes('#/components/parameters/IdempotencyKey'))
    assert.ok(refs(op('/api/v1/products/{id}', 'patch')).includes('#/components/parameters/IfMatch'))
    assert.deepEqual(op('/api/v1/orders', 'post')['x-required-scopes'], ['orders:write'])
    assert.deepEqual(op('/api/v1/orders', 'post').security, [
      { bearer: ['orders:write'] },
      { oauth2: ['orders:write'] },
    ])
    assert.ok(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes['orders:write'])
    const created = op('/api/v1/orders', 'post').responses['201']
    assert.equal(created.description, 'Created')
    assert.ok(created.headers['X-RateLimit-Remaining'])
    assert.ok(created.headers['X-Request-Id'])
    assert.ok(op('/api/v1/orders', 'post').responses['429'].headers['Retry-After'])
    assert.equal(op('/api/v1/customers/{id}/rewards', 'get').deprecated, true)
    assert.ok(op('/api/v1/reports/sales', 'get').responses['200'].content['text/csv'], 'the CSV answer is declared')
    assert.equal(
      op('/api/v1/automations/{id}', 'delete').responses['204'].content,
      undefined,
      'an empty answer is empty',
    )
    assert.equal(doc.info.license.identifier, 'MIT')
    for (const { path, method, op: o } of operations)
      for (const [status, response] of Object.entries(o.responses as Record<string, JsonBody>))
        assert.notEqual(response.description, 'Default Response', `${method} ${path} ${status}`)
  })

  it('serves the docs page outside production, and sends the API’s front door there', async () => {
    const front = await app.api.inject({ method: 'GET', url: '/' })
    assert.equal(front.statusCode, 302, 'it answered 404 before')
    assert.equal(front.headers.location, '/docs')
    const res = await app.api.inject({ method: 'GET', url: '/docs/' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /text\/html/)
  })

  it('refuses to register a route that declares no scope', async () => {
    const bare = Fastify()
    await bare.register(authenticate, { runtime: app.runtime, orgLimitOf: null })
    assert.throws(() => bare.get('/unguarded', async () => 'open'), /declares no scope/)
    await bare.close()
  })

  it('answers health and readiness probes without a token', async () => {
    assert.equal((await app.api.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
    const ready = await app.api.inject({ method: 'GET', url: '/readyz' })
    assert.equal(ready.statusCode, 200)
    assert.deepEqual(ready.json(), { status: 'ready' })
  })
})

describe('production mode', () => {
  it('hides the docs UI', async () => {
    const app = await startTestApp({ NODE_ENV: 'production' })
    try {
      assert.equal((await app.api.inject({ method: 'GET', url: '/docs/' })).statusCode, 404)
      assert.deepEqual((await app.api.inject({ method: 'GET', url: '/' })).json(), {
        name: 'OpenTill API',
        openapi: '/openapi.json',
        graphql: '/catalog/graphql',
        rest: '/api/v1',
      })
      assert.equal((await app.api.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 200)
    } finally {
      await app.close()
    }
  })
})
