import assert from 'node:assert/strict'
import { compare } from '../lib/measure.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

const GRAPHQL_QUERY = '{ products(limit: 50) { id name basePrice category { name } } }'

/** Issue 2 "Speed": the REST product list and the GraphQL product list against a bare route with the same bytes. */
export default async function catalog(t: BenchTarget): Promise<BenchRow[]> {
  const auth = { authorization: `Bearer ${t.token}` }
  const results = await compare(
    [
      { name: 'bare', url: t.bareUrl },
      {
        name: 'rest',
        url: `${t.apiUrl}/api/v1/products?limit=50`,
        headers: auth,
        expect: (status, body) => {
          assert.equal(status, 200)
          assert.equal(JSON.parse(body).data.length, 50)
        },
      },
      {
        name: 'graphql',
        url: `${t.apiUrl}/catalog/graphql`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: GRAPHQL_QUERY }),
        expect: (status, body) => {
          assert.equal(status, 200, body)
          const parsed = JSON.parse(body)
          assert.equal(parsed.errors, undefined, body)
          assert.equal(parsed.data.products.length, 50)
          assert.ok(parsed.data.products[0].category.name)
        },
      },
    ],
    t.rounds,
    t.durationS,
    t.serverPid,
  )
  const bare = results.get('bare')!
  const row = (name: string, scenario: string, target?: string): BenchRow => {
    const s = results.get(name)!
    return {
      engine: t.engine,
      scenario,
      reqPerSec: s.reqPerSec,
      p99Ms: s.p99Ms,
      ratio: s.reqPerSec / bare.reqPerSec,
      cpuUsPerReq: s.cpuUsPerReq,
      target,
    }
  }
  return [
    row('bare', 'bare Fastify route, same bytes from memory'),
    row(
      'rest',
      'GET /api/v1/products?limit=50',
      t.engine === 'server' ? '>= 50% of bare (issue 29), p99 < 50 ms' : undefined,
    ),
    row(
      'graphql',
      'GraphQL products(limit: 50) { id name basePrice category { name } }',
      t.engine === 'server' ? '>= 40% of bare (issue 29), p99 < 50 ms' : undefined,
    ),
  ]
}
