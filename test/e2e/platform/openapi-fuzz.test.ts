import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/**
 * A bounded fuzz over every operation of the project's own OpenAPI, as a careless or hostile client would call
 * them: wrong types, huge and odd strings, NUL characters, deep nesting, unknown ids, odd query strings. Nothing
 * may answer 5xx, and every 4xx is an RFC 9457 problem body. The seed is printed with any failure
 * (FUZZ_SEED=<n> replays it).
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000)
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 4)

/** mulberry32: small, seedable, good enough to pick cases. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ODD_STRINGS = [
  '',
  ' ',
  'x'.repeat(10_000),
  'a\u0000b',
  '\u0000',
  '../../etc/passwd',
  '%00',
  '%',
  "'; DROP TABLE products; --",
  '<script>alert(1)</script>',
  '💥🧨',
  '\ud800',
  'null',
  '-1',
  '1e309',
  'prod_01abcdefghjkmnpqrstvwxyz0',
  'ord_does_not_exist',
  'org_01aaaaaaaaaaaaaaaaaaaaaaaa',
]

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
  enum?: unknown[]
  $ref?: string
}

/**
 * What is wrong with a 4xx answer, if anything. The API answers RFC 9457 problems; the GraphQL endpoints answer in
 * the GraphQL envelope (SPEC) and the OAuth protocol endpoints with RFC 6749 §5.2 bodies (docs/decisions.md).
 */
function refusalProblem(path: string, status: number, type: string, text: string): string | undefined {
  const body = type.includes('json') ? JSON.parse(text) : undefined
  if (path.endsWith('graphql'))
    return Array.isArray(body?.errors) && body.errors[0]?.message ? undefined : 'not a GraphQL error envelope'
  if (/\/oauth\/(token|revoke|introspect)$/.test(path))
    return typeof body?.error === 'string' ? undefined : 'not an RFC 6749 error body'
  if (!type.startsWith('application/problem+json')) return `not a problem body (${type})`
  return body?.type && body?.code && body.status === status ? undefined : 'a problem body without type, code or status'
}

describe(`a fuzz over every operation of the OpenAPI (seed ${SEED})`, () => {
  let app: TestApp
  let merchant: Merchant
  let spec: {
    paths: Record<
      string,
      Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown; produces?: string[] }>
    >
  }
  const next = random(SEED)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    spec = (await app.api.inject({ method: 'GET', url: '/openapi.json' })).json()
  })
  after(() => app.close())

  /** A value of the wrong shape, or of the right shape with odd content, nested up to `depth`. */
  function oddValue(schema: Schema | undefined, depth: number): unknown {
    const r = next()
    if (r < 0.15) return pick(ODD_STRINGS)
    if (r < 0.25) return pick([null, true, -1, 0, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, [], {}])
    if (r < 0.3) {
      // Deep nesting: a hundred arrays or objects within each other.
      let deep: unknown = 'bottom'
      for (let i = 0; i < 100; i++) deep = next() < 0.5 ? [deep] : { nested: deep }
      return deep
    }
    if (schema?.properties && depth < 4) return oddBody(schema, depth + 1)
    if (schema?.items && depth < 4) return [oddValue(schema.items, depth + 1), pick(ODD_STRINGS)]
    if (schema?.enum) return next() < 0.5 ? pick(schema.enum) : `${String(pick(schema.enum))}x`
    return pick(ODD_STRINGS)
  }

  function oddBody(schema: Schema | undefined, depth = 0): Record<string, unknown> {
    const body: Record<string, unknown> = {}
    for (const [name, property] of Object.entries(schema?.properties ?? {}))
      if (next() < 0.7) body[name] = oddValue(property, depth)
    if (next() < 0.3) body[pick(['__proto__', 'constructor', 'unknown_field', 'a\u0000b'])] = pick(ODD_STRINGS)
    return body
  }

  function oddPath(template: string): string {
    return template.replace(/\{[^}]+\}/g, () =>
      encodeURIComponent(pick(['x', 'prod_does_not_exist', '0', 'a'.repeat(300), '..', '%', '💥', ' ', '\u0000'])),
    )
  }

  function oddQuery(parameters: { name: string; in: string }[] | undefined): string {
    const query = new URLSearchParams()
    for (const p of parameters ?? []) if (p.in === 'query' && next() < 0.6) query.append(p.name, pick(ODD_STRINGS))
    if (next() < 0.3) query.append(pick(['limit', 'cursor', 'x', 'limit[]']), pick(['-5', '1e9', 'abc', '']))
    if (next() < 0.2) query.append('limit', '1')
    const text = query.toString()
    return text ? `?${text}` : next() < 0.1 ? '?&&=&%' : ''
  }

  function bodySchema(operation: { requestBody?: unknown }): Schema | undefined {
    const content = (operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content
    return content?.['application/json']?.schema
  }

  it('answers no 5xx, and every 4xx as a problem body', async () => {
    const failures: string[] = []
    let requests = 0
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
        // Streams stay open by design; logging out would end the fuzz's own session; /metrics is not an API.
        if (path.endsWith('/kds/stream') || path.endsWith('/auth/logout') || path === '/metrics') continue
        for (let round = 0; round < ROUNDS; round++) {
          const url = `${oddPath(path)}${oddQuery(operation.parameters)}`
          const withBody = method !== 'get' && method !== 'delete'
          const raw = next() < 0.1
          const res = await app.api.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: {
              authorization: `Bearer ${merchant.token}`,
              ...(withBody
                ? { 'content-type': raw ? pick(['text/plain', 'application/json']) : 'application/json' }
                : {}),
            },
            payload: withBody
              ? raw
                ? pick(['{', '[1,2', 'null', '"x"', '{"a":}', '\u0000'])
                : JSON.stringify(oddBody(bodySchema(operation)))
              : undefined,
          })
          requests++
          const where = `${method.toUpperCase()} ${url.slice(0, 200)} -> ${res.statusCode}`
          if (res.statusCode >= 500) failures.push(`${where}: ${res.body.slice(0, 300)}`)
          else if (res.statusCode >= 400) {
            const problem = refusalProblem(path, res.statusCode, String(res.headers['content-type'] ?? ''), res.body)
            if (problem) failures.push(`${where}: ${problem}: ${res.body.slice(0, 200)}`)
          }
        }
      }
    }
    assert.ok(requests > 300, `only ${requests} requests were made`)
    assert.deepEqual(failures, [], `seed ${SEED}`)
  })
})
