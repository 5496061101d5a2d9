// `npx tsx bench/engines.ts`: the embedded engine against the server engine (PostgreSQL server with Redis) on the
// hot paths, measured side by side in one run: both servers (bench/server.ts, bundled) are up at once, each on its
// own data, and every round measures each load on one engine then the other (which goes first alternates), so
// the machine's drift hits both alike. Loads: the cached product list, GraphQL products(limit: 50),
// POST /orders/calculate and POST /orders (3 of 60 stocked products), a fixed number of requests each at 50
// connections. Prints medians with the app's CPU per request and embedded / server.
// Environment: DATABASE_URL, REDIS_URL as bench/run.ts; BENCH_ROUNDS (5); BENCH_REQUESTS (per load, 3,000).
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { withDefaultUser } from '../src/config.ts'
import { apiOf, stockedShop, threeOf } from './lib/api.ts'
import { analyzeAll, createBenchDatabase } from './lib/database.ts'
import { CONNECTIONS, cpuTimeUs, median } from './lib/measure.ts'
import { benchServerBundle } from './lib/server-bundle.ts'

const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const requests = Number(process.env.BENCH_REQUESTS ?? 3000)
const GRAPHQL_QUERY = '{ products(limit: 50) { id name basePrice category { name } } }'

type Engine = 'server' | 'embedded'
interface Started {
  engine: Engine
  child: ChildProcess
  info: { apiUrl: string; token: string; ownerUrl: string }
  stop: () => Promise<void>
}

async function start(engine: Engine, bundle: string): Promise<Started> {
  const database = engine === 'server' ? await createBenchDatabase(serverUrl) : null
  const dataDir = engine === 'embedded' ? mkdtempSync(join(tmpdir(), 'opentill-bench-')) : null
  const env = database
    ? { BENCH_DATABASE_URL: database.url, BENCH_REDIS_URL: redisUrl, BENCH_DATA_DIR: '' }
    : { BENCH_DATA_DIR: dataDir!, BENCH_DATABASE_URL: '', BENCH_REDIS_URL: '' }
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${engine}: bench server exited with ${code}`)))
  })
  return {
    engine,
    child,
    info: JSON.parse(first),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      await database?.drop()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Each load of one engine: what autocannon sends, a fresh order body per request where it posts one. */
async function loadsOf(s: Started) {
  const { headers, call } = apiOf(s.info)
  const { location, productIds } = await stockedShop(call, 'Engines')
  const sale = () =>
    JSON.stringify({
      location_id: location,
      lines: threeOf(productIds).map((product_id) => ({ product_id, quantity: 1 })),
    })
  const post = (path: string, body: () => string) => ({
    method: 'POST' as const,
    path,
    headers,
    setupRequest: (req: object) => ({ ...req, body: body() }),
  })
  return {
    'GET /products?limit=50 (cached)': { method: 'GET' as const, path: '/api/v1/products?limit=50', headers },
    'GraphQL products(limit: 50)': post('/catalog/graphql', () => JSON.stringify({ query: GRAPHQL_QUERY })),
    'POST /orders/calculate': post('/api/v1/orders/calculate', sale),
    'POST /orders': post('/api/v1/orders', sale),
  }
}
type Loads = Awaited<ReturnType<typeof loadsOf>>
type LoadName = keyof Loads

async function measure(s: Started, request: Loads[LoadName], count: number) {
  const cpuBefore = cpuTimeUs(s.child.pid)
  let firstSentAt = 0
  let lastAnsweredAt = 0
  const result = await autocannon({
    url: s.info.apiUrl,
    connections: CONNECTIONS,
    amount: count,
    requests: [
      {
        ...request,
        setupRequest: (req) => {
          firstSentAt ||= performance.now()
          return 'setupRequest' in request ? request.setupRequest(req) : req
        },
        onResponse: () => {
          lastAnsweredAt = performance.now()
        },
      },
    ],
  })
  const failures = result.non2xx + result.errors + result.timeouts
  assert.equal(failures, 0, `${s.engine}: ${failures} failed requests of ${result.requests.total}`)
  const cpu = cpuTimeUs(s.child.pid)
  return {
    reqPerSec: result.requests.total / ((lastAnsweredAt - firstSentAt) / 1000),
    p99Ms: result.latency.p99,
    cpuUsPerReq: cpu === undefined || cpuBefore === undefined ? Number.NaN : (cpu - cpuBefore) / result.requests.total,
  }
}

const bundle = await benchServerBundle(new URL('..', import.meta.url).pathname)
const engines = [await start('server', bundle), await start('embedded', bundle)]
try {
  const loads = new Map<Started, Loads>()
  for (const s of engines) loads.set(s, await loadsOf(s))
  const names = Object.keys(loads.get(engines[0])!) as LoadName[]
  const samples = new Map<string, Awaited<ReturnType<typeof measure>>[]>()
  for (const s of engines) for (const name of names) await measure(s, loads.get(s)![name], 300)
  for (const s of engines) await analyzeAll(s.info.ownerUrl)
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? engines : [...engines].reverse()
    for (const name of names)
      for (const s of order) {
        const count = name === 'POST /orders' ? Math.ceil(requests / 5) : requests
        const sample = await measure(s, loads.get(s)![name], count)
        samples.set(`${name}|${s.engine}`, [...(samples.get(`${name}|${s.engine}`) ?? []), sample])
        console.error(`[engines] round ${round + 1} ${name} ${s.engine}: ${Math.round(sample.reqPerSec)} req/s`)
      }
  }
  const lines = [
    '| Call | server req/s | embedded req/s | embedded / server (median of rounds) | p99 ms server / embedded | app CPU µs/req server / embedded |',
    '|---|---:|---:|---|---:|---:|',
  ]
  for (const name of names) {
    const [server, embedded] = (['server', 'embedded'] as const).map((e) => samples.get(`${name}|${e}`)!)
    const ratios = server.map((s, i) => embedded[i].reqPerSec / s.reqPerSec)
    const med = (list: typeof server, pick: (s: (typeof server)[number]) => number) =>
      Math.round(median(list.map(pick)))
    lines.push(
      `| ${name} | ${med(server, (s) => s.reqPerSec)} | ${med(embedded, (s) => s.reqPerSec)} | ${Math.round(median(ratios) * 100)}% (${ratios.map((r) => Math.round(r * 100)).join(', ')}) | ${med(server, (s) => s.p99Ms)} / ${med(embedded, (s) => s.p99Ms)} | ${med(server, (s) => s.cpuUsPerReq)} / ${med(embedded, (s) => s.cpuUsPerReq)} |`,
    )
  }
  console.log(lines.join('\n'))
} finally {
  for (const s of engines) await s.stop()
}
