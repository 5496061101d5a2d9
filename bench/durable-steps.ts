// `npx tsx bench/durable-steps.ts`: what making a flow durable costs, by engine. A refund-shaped flow (a
// transaction, an outbound call, a transaction) runs BENCH_RUNS times (400) with BENCH_CONCURRENCY (16) in flight:
// - bare: the flow as it would run with nothing recorded;
// - flow-runs: the run recorded in the first transaction, the call's answer recorded as its step, the run ended in
//   the last transaction (platform/flows/flow-runs.ts, what refunds and lay-by cancellations use);
// - dbos: the same three as the steps of a DBOS workflow (@dbos-inc/dbos-sdk, as automations use it), its status and
//   each step's output checkpointed by DBOS in its own schema.
// Rounds alternate (BENCH_ROUNDS, 5); prints the medians of runs per second and of app CPU per run, with ratios to
// bare. On a fresh database on DATABASE_URL (default postgres://127.0.0.1:5432/test), dropped afterwards.
import { DBOS } from '@dbos-inc/dbos-sdk'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import pino from 'pino'
import { loadConfig, withDefaultUser } from '../src/config.ts'
import { readyDbosSchema } from '../src/modules/automations/dbos-schema.ts'
import { beginRun, endRun, runStep } from '../src/platform/flows/flow-runs.ts'
import type { RequestContext } from '../src/platform/http/context.ts'
import { systemContext } from '../src/platform/http/system-context.ts'
import { openRuntime } from '../src/platform/runtime.ts'
import { createBenchDatabase } from './lib/database.ts'

const runs = Number(process.env.BENCH_RUNS ?? 400)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!
const log = pino({ level: 'warn' }) as unknown as FastifyBaseLogger

const scratch = await createBenchDatabase(serverUrl)
const runtime = await openRuntime(
  loadConfig({ NODE_ENV: 'test', DATABASE_URL: scratch.url, REDIS_URL: '', LOG_LEVEL: 'warn' }),
  { migrate: true },
)
const orgId = 'org_bench'
// A row per run for the flow's two transactions to write, as a refund's reservation and settlement do.
const owner = new pg.Client({ connectionString: runtime.ownerUrl })
await owner.connect()
await owner.query(
  'CREATE TABLE bench_work (org_id text NOT NULL, id integer NOT NULL, n integer NOT NULL DEFAULT 0, PRIMARY KEY (org_id, id))',
)
await owner.query('INSERT INTO bench_work (org_id, id) SELECT $1, g FROM generate_series(0, $2) g', [orgId, runs])
await owner.query('GRANT SELECT, UPDATE ON bench_work TO opentill_app')
await owner.end()
const ctx: RequestContext = systemContext(runtime.database, orgId, [], log)
const touch = (id: number) =>
  ctx.db.tx((q) => q.query('UPDATE bench_work SET n = n + 1 WHERE org_id = $1 AND id = $2', [orgId, id]))
/** The processor: answers on the next turn of the event loop, so that the figures are the recording's. */
const call = async (id: number) => {
  await new Promise(setImmediate)
  return { ok: true, ref: `re_${id}` }
}

const flows: Record<string, (id: number, round: number) => Promise<unknown>> = {
  async bare(id) {
    await touch(id)
    await call(id)
    await touch(id)
  },
  async 'flow-runs'(id, round) {
    const run = await ctx.db.tx(async () => {
      await touch(id)
      return beginRun(ctx, 'bench', `${round}:${id}`, { id })
    })
    await runStep(ctx, run, 'processor', () => call(id))
    await ctx.db.tx(async () => {
      await touch(id)
      await endRun(ctx, run)
    })
  },
  async dbos(id, round) {
    await DBOS.startWorkflow(benchWorkflow, { workflowID: `bench-${round}-${id}` })(id).then((h) => h.getResult())
  },
}

async function benchFlow(id: number): Promise<void> {
  await DBOS.runStep(() => touch(id), { name: 'reserve' })
  await DBOS.runStep(() => call(id), { name: 'processor' })
  await DBOS.runStep(() => touch(id), { name: 'settle' })
}
const benchWorkflow = DBOS.registerWorkflow(benchFlow, { name: 'benchFlow' })

DBOS.setConfig({
  name: 'opentill-bench',
  systemDatabaseUrl: await readyDbosSchema(runtime.ownerUrl, 'dbos', log),
  systemDatabaseSchemaName: 'dbos',
  systemDatabasePoolSize: 10,
  runMigrations: false,
  logger: {
    info() {},
    debug() {},
    warn: (e: unknown) => log.warn({ dbos: e }),
    error: (e: unknown) => log.error({ dbos: e }),
  },
})
await DBOS.launch()

async function round(name: string, n: number): Promise<{ perS: number; cpuUs: number }> {
  let next = 0
  const cpu = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) await flows[name](next++, n)
    }),
  )
  const wallMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { perS: (runs * 1000) / wallMs, cpuUs: (used.user + used.system) / runs }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const results: Record<string, { perS: number[]; cpuUs: number[] }> = {}
try {
  // A warm-up round of each, not counted.
  for (const name of Object.keys(flows)) await round(name, -1)
  for (let n = 0; n < rounds; n++) {
    const order = n % 2 === 0 ? Object.keys(flows) : Object.keys(flows).reverse()
    for (const name of order) {
      const r = await round(name, n)
      results[name] ??= { perS: [], cpuUs: [] }
      results[name].perS.push(r.perS)
      results[name].cpuUs.push(r.cpuUs)
    }
  }
  const bare = { perS: median(results.bare.perS), cpuUs: median(results.bare.cpuUs) }
  for (const [name, r] of Object.entries(results)) {
    const perS = median(r.perS)
    const cpuUs = median(r.cpuUs)
    process.stdout.write(
      `${JSON.stringify({
        flow: name,
        runs_per_s: Math.round(perS),
        of_bare: Number((perS / bare.perS).toFixed(2)),
        app_cpu_us_per_run: Math.round(cpuUs),
        cpu_of_bare: Number((cpuUs / bare.cpuUs).toFixed(2)),
        rounds: r.perS.map(Math.round),
      })}\n`,
    )
  }
} finally {
  await DBOS.shutdown()
  await runtime.close()
  await scratch.drop()
}
