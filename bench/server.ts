// The process a benchmark measures: the real app on 127.0.0.1 with a seeded catalog, and a bare Fastify route
// serving the REST answer's bytes from memory (the ceiling). Prints one JSON line with the addresses, then
// runs until SIGTERM. Run by bench/run.ts, never by hand, bundled as `npm start` bundles the server
// (bench/lib/server-bundle.ts).

import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import pg from 'pg'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { fromRoot } from '../src/platform/paths.ts'
import { openRuntime } from '../src/platform/runtime.ts'

// The embedded engine is measured as `npm start` runs it: a durable cluster in a data directory of its own.
const config = loadConfig({
  NODE_ENV: 'production',
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
  DATA_DIR: process.env.BENCH_DATA_DIR ?? '',
  REDIS_URL: process.env.BENCH_REDIS_URL ?? '',
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  SEED_DEMO: 'false',
  // A throughput benchmark saturates the process on purpose: load shedding would answer its excess with 503s.
  SHED_EVENT_LOOP_DELAY_MS: process.env.BENCH_SHED_EVENT_LOOP_DELAY_MS ?? '0',
  // The kitchen scenario opens 500 screens on one token: far past the org's and the credential's defaults.
  KDS_MAX_STREAMS_PER_ORG: '1000',
  KDS_MAX_STREAMS_PER_CREDENTIAL: '1000',
})
const runtime = await openRuntime(config, { migrate: true, serving: true })
const { api, services } = await buildApp(runtime)

const email = `bench-${randomBytes(4).toString('hex')}@example.test`
const password = randomBytes(12).toString('hex')
const { org } = await services.orgs.createOrg({ name: 'Bench Shop', email, password, currency: 'USD' })

// Seeded as the owner in one transaction scoped to the org.
const owner = new pg.Client({ connectionString: runtime.ownerUrl })
await owner.connect()
await owner.query('BEGIN')
await owner.query("SELECT set_config('app.org_id', $1, true)", [org.id])
for (const statement of readFileSync(fromRoot('bench', 'seed.sql'), 'utf8').split(/;\s*$/m)) {
  const sql = statement.replace(/^--.*$/gm, '').trim()
  if (sql && !sql.startsWith('ANALYZE')) await owner.query(sql, sql.includes('$1') ? [org.id] : [])
}
await owner.query('COMMIT')
// Fresh statistics, so the planner knows there are 10,000 products now rather than after autovacuum's next round.
await owner.query('ANALYZE categories; ANALYZE products')
await owner.end()

await api.listen({ port: 0, host: '127.0.0.1' })
const apiUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`
const login = await api.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } })
const token = login.json().data.accessToken as string

// The bare route serves exactly what the REST list answers, from memory: no auth, no database, no schema.
const sample = await api.inject({
  method: 'GET',
  url: '/api/v1/products?limit=50',
  headers: { authorization: `Bearer ${token}` },
})
if (sample.statusCode !== 200) throw new Error(`REST sample failed: ${sample.statusCode} ${sample.body}`)
const bare = Fastify({ logger: false })
const body = sample.rawPayload
bare.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body))
await bare.listen({ port: 0, host: '127.0.0.1' })
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`

// The same app on the same runtime less one feature, to measure what that feature costs per request.
const variants = [
  await buildApp(runtime, services, { measuredWithout: ['metrics'] }),
  await buildApp(runtime, services, { measuredWithout: ['org-rate-limit'] }),
]
const [withoutMetricsUrl, withoutOrgRateLimitUrl] = await Promise.all(
  variants.map(async ({ api: variant }) => {
    await variant.listen({ port: 0, host: '127.0.0.1' })
    return `http://127.0.0.1:${(variant.server.address() as AddressInfo).port}`
  }),
)

process.stdout.write(
  `${JSON.stringify({ apiUrl, bareUrl, withoutMetricsUrl, withoutOrgRateLimitUrl, token, orgId: org.id, ownerUrl: runtime.ownerUrl, restBytes: body.length })}\n`,
)

const stop = async () => {
  await bare.close()
  for (const { api: variant } of variants) await variant.close()
  await api.close()
  await runtime.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
