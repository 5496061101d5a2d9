// `npx tsx bench/automation-schedules.ts`: is the schedule loop fair? One busy org holds BENCH_SCHEDULES (1,000)
// schedule rules due every minute; a quiet org, made after it, holds one. The loop used to serve rules in org order,
// so the quiet org's rule waited for all of the busy org's. Prints one JSON line per round (BENCH_ROUNDS, 5): how
// long after the slot's first run the quiet org's run was created, how long the whole slot took (the busy org's
// last run), and their ratio, with the medians. A fresh database on DATABASE_URL (default 127.0.0.1:5432/test).
import { loadConfig, withDefaultUser } from '../src/config.ts'
import { startAutomationWorker } from '../src/modules/automations/index.ts'
import { openRuntime } from '../src/platform/runtime.ts'
import { createServices } from '../src/services.ts'
import { createBenchDatabase, createBenchOrg, ownerContext } from './lib/database.ts'

const schedules = Number(process.env.BENCH_SCHEDULES ?? 1000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!

const database = await createBenchDatabase(serverUrl)
const runtime = await openRuntime(
  loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    AUTOMATIONS_MAX_RULES: String(schedules),
  }),
  { migrate: true },
)
const services = createServices(runtime)

/** An org with `count` rules due every minute at its one location; each run only waits (a durable sleep). */
async function orgWithSchedules(count: number) {
  const org = await createBenchOrg(services)
  const ctx = ownerContext(runtime.database, org)
  const location = await services.locations.create(ctx, { name: 'Shop', timezone: 'UTC' })
  for (let i = 0; i < count; i++)
    await services.automations.create(ctx, {
      name: `Every minute ${i}`,
      trigger: { type: 'schedule', cron: '* * * * *', location_id: location.id },
      actions: [{ type: 'wait', seconds: 30 * 86_400 }],
    })
  return org
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

try {
  const busy = await orgWithSchedules(schedules)
  const quiet = await orgWithSchedules(1)
  // The schedule clock: each round moves it one minute, so every rule has exactly one new slot.
  let clock = new Date(Date.UTC(2026, 0, 1, 12, 0, 30))
  const worker = startAutomationWorker(runtime, services, { now: () => clock, scheduleEveryMs: 0, pollMs: 20 })
  await worker.launched

  const runsOf = (orgId: string, slot: Date) =>
    runtime.database.read(orgId, async (q) => {
      const result = await q.query<{ n: string; first: Date; last: Date }>(
        `SELECT count(*) AS n, min(created_at) AS first, max(created_at) AS last FROM automation_runs
         WHERE org_id = $1 AND scheduled_for = $2`,
        [orgId, slot],
      )
      return { n: Number(result.rows[0].n), first: result.rows[0].first, last: result.rows[0].last }
    })
  /** Asks `look` every 100 ms until `done` holds for its answer; answers that answer. */
  const until = async <T>(look: () => Promise<T>, done: (answer: T) => boolean): Promise<T> => {
    for (;;) {
      const answer = await look()
      if (done(answer)) return answer
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  // The first look at a schedule sets its cursor: wait until every rule of each org has one (each in its own scope).
  const withoutCursor = (orgId: string) =>
    runtime.database.read(orgId, async (q) => {
      const result = await q.query<{ n: string }>(
        'SELECT count(*) AS n FROM automations WHERE org_id = $1 AND schedule_cursor IS NULL',
        [orgId],
      )
      return Number(result.rows[0].n)
    })
  await until(
    async () => (await withoutCursor(busy.id)) + (await withoutCursor(quiet.id)),
    (n) => n === 0,
  )

  const quietDelays: number[] = []
  const slotTimes: number[] = []
  for (let round = 0; round < rounds; round++) {
    clock = new Date(clock.getTime() + 60_000)
    const slot = new Date(Math.floor(clock.getTime() / 60_000) * 60_000)
    const [busyRuns, quietRun] = await until(
      () => Promise.all([runsOf(busy.id, slot), runsOf(quiet.id, slot)]),
      ([b, q]) => b.n === schedules && q.n === 1,
    )
    const quietMs = quietRun.first.getTime() - busyRuns.first.getTime()
    const slotMs = busyRuns.last.getTime() - busyRuns.first.getTime()
    quietDelays.push(quietMs)
    slotTimes.push(slotMs)
    process.stdout.write(
      `${JSON.stringify({ round, schedules, quiet_delay_ms: quietMs, slot_ms: slotMs, ratio: Number((quietMs / slotMs).toFixed(4)) })}\n`,
    )
  }
  await worker.stop()
  process.stdout.write(
    `${JSON.stringify({
      schedules,
      rounds,
      median_quiet_delay_ms: median(quietDelays),
      median_slot_ms: median(slotTimes),
      median_ratio: Number((median(quietDelays) / median(slotTimes)).toFixed(4)),
    })}\n`,
  )
} finally {
  await runtime.close()
  await database.drop()
}
