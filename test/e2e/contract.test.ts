import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Fastify from 'fastify'
import { authenticate } from '../../src/platform/http/authenticate.ts'
import { startTestApp, type TestApp } from '../support/harness.ts'

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

  it('serves the docs page outside production', async () => {
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
      assert.equal((await app.api.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 200)
    } finally {
      await app.close()
    }
  })
})
