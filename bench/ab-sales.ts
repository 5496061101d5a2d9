// `npx tsx bench/ab-sales.ts <revision>`: the sales hot paths of this checkout (B) against another revision (A),
// measured side by side on the PostgreSQL server with Redis: POST /orders (3 lines), POST /payments (a card
// captured at once for an order's total, which completes it, each with its Idempotency-Key) and POST /orders/:id/refund (all of it back to the
// card). Each server runs bench/server.ts of its own tree in its own process on a fresh database and Redis
// database; the two alternate within each round (which goes first alternates too), each load a fixed number of
// requests at 50 connections; figures are medians of the rounds, with the app's CPU time per request.
// Environment: DATABASE_URL, REDIS_URL as bench/run.ts; BENCH_ROUNDS (5); BENCH_REQUESTS (1,000 per load).
import assert from 'node:assert/strict'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, symlinkSync } from 'node:fs'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { withDefaultUser } from '../src/config.ts'
import { apiOf, stockedShop, threeOf } from './lib/api.ts'
import { createBenchDatabase } from './lib/database.ts'
import { CONNECTIONS, cpuTimeUs, median } from './lib/measure.ts'

const revision = process.argv[2]
assert.ok(revision, 'usage: npx tsx bench/ab-sales.ts <revision to compare with>')
const root = new URL('../', import.meta.url).pathname
const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const requests = Number(process.env.BENCH_REQUESTS ?? 1000)

/** The other revision's tree, beside this one's node_modules. */
function treeOf(rev: string): string {
  const dir = `/tmp/opentill-ab-${execFileSync('git', ['rev-parse', '--short', rev], { cwd: root }).toString().trim()}`
  if (!existsSync(dir)) execFileSync('git', ['worktree', 'add', '--detach', dir, rev], { cwd: root, stdio: 'ignore' })
  if (!existsSync(`${dir}/node_modules`)) symlinkSync(`${root}node_modules`, `${dir}/node_modules`)
  return dir
}

interface Server {
  name: string
  child: ChildProcess
  apiUrl: string
  api: ReturnType<typeof apiOf>
  drop: () => Promise<void>
}

async function start(name: string, tree: string, redisDb: number): Promise<Server> {
  const database = await createBenchDatabase(serverUrl)
  // BENCH_SERVER_NODE_ARGS passes Node flags to both measured processes (say `--cpu-prof --cpu-prof-dir=/tmp/p`).
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', `${tree}/bench/server.ts`], {
    cwd: tree,
    env: { ...process.env, BENCH_DATABASE_URL: database.url, BENCH_REDIS_URL: `${redisUrl}/${redisDb}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${name}: bench server exited with ${code}`)))
  })
  const info = JSON.parse(first)
  return {
    name,
    child,
    apiUrl: info.apiUrl,
    api: apiOf(info),
    drop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      await database.drop()
    },
  }
}

/** A shop of each server: a location whose 60 products are stocked, and the orders made, paid and refunded. */
async function shopOf(s: Server) {
  const { location, productIds: products } = await stockedShop(s.api.call, 'A/B store')
  return { location, products, open: [] as { id: string; total: number }[], paid: [] as string[] }
}

type Shop = Awaited<ReturnType<typeof shopOf>>
type Load = 'orders' | 'payments' | 'refunds'

/** One load of `requests` requests on a server; answers its rate, p99 and the app's CPU time per request. */
async function measure(s: Server, shop: Shop, load: Load, count = requests) {
  const next: Record<Load, () => { path: string; body: string }> = {
    orders: () => ({
      path: '/api/v1/orders',
      body: JSON.stringify({
        location_id: shop.location,
        lines: threeOf(shop.products).map((product_id) => ({ product_id, quantity: 1 })),
      }),
    }),
    payments: () => {
      const order = shop.open.shift()!
      shop.paid.push(order.id)
      return {
        path: '/api/v1/payments',
        body: JSON.stringify({
          order_id: order.id,
          amount: order.total,
          method: 'card',
          payment_method_token: 'pm_card_visa',
          capture: true,
        }),
      }
    },
    refunds: () => ({ path: `/api/v1/orders/${shop.paid.shift()!}/refund`, body: '{}' }),
  }
  const cpuBefore = cpuTimeUs(s.child.pid)
  // From the first request sent to the last answer: autocannon's own clock ticks in whole seconds.
  let firstSentAt = 0
  let lastAnsweredAt = 0
  const result = await autocannon({
    url: s.apiUrl,
    connections: CONNECTIONS,
    amount: count,
    requests: [
      {
        method: 'POST',
        headers: s.api.headers,
        setupRequest: (req) => {
          firstSentAt ||= performance.now()
          // A till sends each payment with its own Idempotency-Key: its steps are recorded against it.
          const headers = load === 'payments' ? { ...req.headers, 'idempotency-key': randomUUID() } : req.headers
          return { ...req, headers, ...next[load]() }
        },
        onResponse: (status: number, body: string) => {
          lastAnsweredAt = performance.now()
          if (load === 'orders' && status === 201) {
            const order = JSON.parse(body).data
            shop.open.push({ id: order.id, total: order.total })
          }
        },
      },
    ],
  })
  const elapsedS = (lastAnsweredAt - firstSentAt) / 1000
  const failures = result.non2xx + result.errors + result.timeouts
  assert.equal(failures, 0, `${s.name} ${load}: ${failures} failed requests of ${result.requests.total}`)
  const cpu = cpuTimeUs(s.child.pid)
  return {
    reqPerSec: result.requests.total / elapsedS,
    p99Ms: result.latency.p99,
    cpuUsPerReq: cpu === undefined || cpuBefore === undefined ? undefined : (cpu - cpuBefore) / result.requests.total,
  }
}

// B runs from BENCH_B_TREE when given (a worktree on the same file system as A's), else from this checkout.
const bTree = process.env.BENCH_B_TREE ?? root
// Which starts first takes the first Redis database and the first database: BENCH_B_FIRST=1 swaps them, so that a
// run in each order shows what the position alone does.
const bFirst = process.env.BENCH_B_FIRST === '1'
const [before, after] = bFirst
  ? await (async () => {
      const b = await start('B (this checkout)', bTree, 1)
      return [await start(`A (${revision})`, treeOf(revision), 2), b]
    })()
  : [await start(`A (${revision})`, treeOf(revision), 1), await start('B (this checkout)', bTree, 2)]
try {
  const shops = new Map([
    [before, await shopOf(before)],
    [after, await shopOf(after)],
  ])
  const samples = new Map<string, { reqPerSec: number; p99Ms: number; cpuUsPerReq?: number }[]>()
  // Warm-up: one small load of each on both, outside the figures.
  for (const s of [before, after])
    for (const load of ['orders', 'payments', 'refunds'] as Load[]) {
      await measure(s, shops.get(s)!, load, 200)
    }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [before, after] : [after, before]
    for (const load of ['orders', 'payments', 'refunds'] as Load[]) {
      for (const s of order) {
        const sample = await measure(s, shops.get(s)!, load)
        const key = `${load}|${s.name}`
        samples.set(key, [...(samples.get(key) ?? []), sample])
        console.error(`[ab] round ${round + 1} ${load} ${s.name}: ${Math.round(sample.reqPerSec)} req/s`)
      }
    }
  }
  const lines = [
    '| Call | Revision | req/s (median) | rounds (req/s) | p99 ms | app CPU µs/req |',
    '|---|---|---:|---|---:|---:|',
  ]
  for (const load of ['orders', 'payments', 'refunds'] as Load[]) {
    for (const s of [before, after]) {
      const got = samples.get(`${load}|${s.name}`)!
      const cpu = got.flatMap((g) => (g.cpuUsPerReq === undefined ? [] : [g.cpuUsPerReq]))
      lines.push(
        `| ${load} | ${s.name} | ${Math.round(median(got.map((g) => g.reqPerSec)))} | ${got.map((g) => Math.round(g.reqPerSec)).join(', ')} | ${median(got.map((g) => g.p99Ms))} | ${cpu.length ? Math.round(median(cpu)) : ''} |`,
      )
    }
  }
  console.log(lines.join('\n'))
} finally {
  await before.drop()
  await after.drop()
}
