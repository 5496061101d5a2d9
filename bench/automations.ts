// `npx tsx bench/automations.ts`: automation throughput. 1,000 committed customer.created events (BENCH_EVENTS),
// each triggering a two-step rule (tag the customer, adjust stock), through the outbox, the automation worker and
// DBOS; the latency of each run is from its event's commit to the run's finish. Prints one JSON line with p50,
// p99, the wall time and runs per second.
// BENCH_ENGINE=server (a fresh database on DATABASE_URL, default postgres://127.0.0.1:5432/test) or embedded (a
// fresh, durable embedded PostgreSQL in a temporary DATA_DIR). BENCH_CONCURRENCY (20) customers are created at once.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { loadConfig, withDefaultUser } from '../src/config.ts'
import { startAutomationWorker } from '../src/modules/automations/index.ts'
import { openRuntime } from '../src/platform/runtime.ts'
import { createServices } from '../src/services.ts'
import { createBenchOrg, ownerContext } from './lib/database.ts'

const engine = process.env.BENCH_ENGINE ?? 'server'
const events = Number(process.env.BENCH_EVENTS ?? 1000)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20)
const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  await client.query(sql)
  await client.end()
}

const dbName = `opentill_bench_${randomBytes(4).toString('hex')}`
const dataDir = engine === 'embedded' ? mkdtempSync(join(tmpdir(), 'opentill-bench-auto-')) : undefined
let databaseUrl = ''
if (engine === 'server') {
  await admin(`CREATE DATABASE ${dbName}`)
  const url = new URL(serverUrl)
  url.pathname = `/${dbName}`
  databaseUrl = url.toString()
}
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir ?? '',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
})
const runtime = await openRuntime(config, { migrate: true })
const services = createServices(runtime)
try {
  const org = await createBenchOrg(services)
  const ctx = ownerContext(runtime.database, org)
  const location = await services.locations.create(ctx, { name: 'Bench shop' })
  const product = await services.catalog.products.create(ctx, { name: 'Bench item', sku: 'BENCH-1', base_price: 1 })
  await services.automations.create(ctx, {
    name: 'Welcome',
    trigger: { type: 'event', event: 'customer.created' },
    actions: [
      { type: 'tag_customer', tag: 'welcomed', customer_path: 'id' },
      { type: 'adjust_inventory', product_id: product.id, location_id: location.id, quantity: 1, reason: 'received' },
    ],
  })
  const worker = startAutomationWorker(runtime, services, { pollMs: 50 })
  await worker.launched

  const committed = new Map<string, number>()
  const started = Date.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < events) {
        const i = next++
        const { customer } = await services.customers.upsert(ctx, { first_name: `C${i}`, email: `c${i}@example.test` })
        committed.set(customer.id, Date.now())
      }
    }),
  )
  const allCommitted = Date.now()
  let lastCreated = 0
  const finished = await new Promise<Map<string, number>>((done, fail) => {
    const deadline = Date.now() + 50_000
    const poll = async () => {
      const rows = await runtime.database.read(org.id, (q) =>
        q.query<{ customer_id: string; finished_at: Date; status: string; created_at: Date }>(
          `SELECT data ->> 'id' AS customer_id, finished_at, status, created_at FROM automation_runs
           WHERE org_id = $1 AND status IN ('succeeded', 'failed')`,
          [org.id],
        ),
      )
      if (rows.rows.length >= events) {
        const failed = rows.rows.filter((r) => r.status !== 'succeeded').length
        if (failed > 0) fail(new Error(`${failed} runs failed`))
        else {
          lastCreated = Math.max(...rows.rows.map((r) => r.created_at.getTime()))
          done(new Map(rows.rows.map((r) => [r.customer_id, r.finished_at.getTime()])))
        }
      } else if (Date.now() > deadline) fail(new Error(`only ${rows.rows.length} of ${events} runs finished in time`))
      else setTimeout(poll, 100)
    }
    poll()
  })
  const wallS = (Math.max(...finished.values()) - started) / 1000
  const latencies = [...committed].map(([id, at]) => (finished.get(id) ?? Number.NaN) - at).sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
  await worker.stop()
  process.stdout.write(
    `${JSON.stringify({
      engine,
      events,
      concurrency,
      p50_ms: pct(50),
      p99_ms: pct(99),
      max_ms: latencies[latencies.length - 1],
      wall_s: Number(wallS.toFixed(2)),
      events_committed_s: Number(((allCommitted - started) / 1000).toFixed(2)),
      runs_created_s: Number(((lastCreated - started) / 1000).toFixed(2)),
      runs_per_s: Number((events / wallS).toFixed(1)),
    })}\n`,
  )
} finally {
  await runtime.close()
  if (engine === 'server') await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
}
