import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import { createError } from '../../src/platform/errors/codes.ts'
import { collectUndeclaredErrorCodes, documentErrorCodes } from '../../src/platform/http/error-codes.ts'
import { installErrorHandler } from '../../src/platform/http/error-handler.ts'
import { errorResponses, ProblemSchema } from '../../src/platform/http/schemas.ts'

const DECLARED = createError('DECLARED_CONFLICT', 'conflict')
const UNDECLARED = createError('UNDECLARED_CONFLICT', 'conflict')

describe('the error codes a route declares', () => {
  it('are the codes its problem answers may carry, and an answer with another is collected', async () => {
    const app = Fastify()
    installErrorHandler(app)
    documentErrorCodes(app)
    collectUndeclaredErrorCodes(app)
    app.addSchema(ProblemSchema)
    const route = (url: string, error: Error) =>
      app.post(
        url,
        {
          config: { scope: false },
          schema: { response: { 200: { type: 'object' }, ...errorResponses(404, DECLARED) } },
        },
        async () => {
          throw error
        },
      )
    route('/declared', DECLARED('as documented'))
    route('/undeclared', UNDECLARED('not in the list'))
    await app.ready()
    assert.equal((await app.inject({ method: 'POST', url: '/declared' })).json().code, 'DECLARED_CONFLICT')
    assert.equal((await app.inject({ method: 'POST', url: '/undeclared' })).statusCode, 409)
    assert.deepEqual([...(app.undeclaredErrorCodes ?? [])], ['POST /undeclared 409 UNDECLARED_CONFLICT'])
    await app.close()
  })

  it('add the platform codes by what the route is: guarded, with parameters, a body, a POST', () => {
    const app = Fastify()
    documentErrorCodes(app)
    let seen: Record<number, readonly string[]> | undefined
    app.addHook('onRoute', (route) => {
      seen = route.config?.errorCodes
    })
    app.post(
      '/things/:id',
      {
        config: { scope: 'things:write' },
        schema: { params: { type: 'object' }, body: { type: 'object' }, response: errorResponses(DECLARED) },
      },
      async () => ({}),
    )
    assert.deepEqual(seen?.[409], ['DECLARED_CONFLICT', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_INTERRUPTED'])
    assert.deepEqual(seen?.[401], ['UNAUTHORIZED'])
    assert.deepEqual(seen?.[422], ['VALIDATION', 'IDEMPOTENCY_KEY_REUSED'])
    assert.deepEqual(seen?.[400], ['BAD_REQUEST', 'BODY_TOO_DEEP'])
    assert.deepEqual(seen?.[414], ['URI_TOO_LONG'])
  })

  it('are the platform codes alone for a route that declares none, and none for routes with errors of their own', () => {
    const app = Fastify()
    documentErrorCodes(app)
    const seen: Record<string, Record<number, readonly string[]> | undefined> = {}
    app.addHook('onRoute', (route) => {
      seen[route.url] = route.config?.errorCodes
    })
    const ok = { 200: { type: 'object' } }
    app.get(
      '/things',
      { config: { scope: 'things:read' }, schema: { querystring: {}, response: ok } },
      async () => ({}),
    )
    app.get(
      '/live',
      { config: { scope: false, pressureHandler: () => undefined }, schema: { response: ok } },
      async () => ({}),
    )
    app.post('/graphql', { config: { scope: false, problems: false }, schema: { response: ok } }, async () => ({}))
    app.post(
      '/token',
      { config: { scope: false }, schema: { response: { ...ok, 400: { type: 'object' } } } },
      async () => ({}),
    )
    assert.deepEqual(Object.keys(seen['/things'] ?? {}), ['400', '401', '403', '429', '500', '503'])
    assert.deepEqual(seen['/live'], {}, 'a liveness route answers under load shedding too')
    assert.equal(seen['/graphql'], undefined)
    assert.equal(seen['/token'], undefined, 'an OAuth error of its own format is not a problem')
  })
})
