// `npx tsx bench/mixed-load.ts`: the sustained mixed load of issue 13 on the PostgreSQL server and Redis: two
// `opentill serve` processes and one `opentill worker`, BENCH_CLIENTS (16) clients doing catalog reads, orders,
// card and gift card payments, refunds and loyalty, with a kitchen stream open on each instance and every order
// event sent to a webhook receiver. BENCH_ROUNDS (3) rounds of BENCH_ROUND_S (30) seconds on one instance and on
// both, alternating which goes first; medians are printed as a Markdown table, then the audit of the whole run
// (test/support/mixed-load.ts). DATABASE_URL (default postgres://127.0.0.1:5432/test) gets a fresh database.
import { withDefaultUser } from '../src/config.ts'
import { HttpsReceiver } from '../test/support/https-receiver.ts'
import { audit, combined, type LoadResult, prepareShop, runLoad } from '../test/support/mixed-load.ts'
import { OpentillProcesses, prepareOrg } from '../test/support/processes.ts'
import { createBenchDatabase } from './lib/database.ts'
import { loadProcessEnv } from './lib/load-env.ts'
import { cpuTimeUs, median } from './lib/measure.ts'

const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const roundS = Number(process.env.BENCH_ROUND_S ?? 30)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)

const database = await createBenchDatabase(serverUrl)
const processes = new OpentillProcesses()
const receiver = await new HttpsReceiver().start()
try {
  const env = loadProcessEnv(database.url, redisUrl)
  const owner = await prepareOrg(env, { name: 'Load', unlimited: true })

  // The instances serve; the one worker delivers the webhooks.
  const instances: { url: string; pid: number }[] = []
  for (let i = 0; i < 2; i++) instances.push(await processes.serve({ ...env, WORKERS: 'false' }))
  await processes.start('worker', env)

  const shop = await prepareShop(instances[0].url, owner, receiver.url('/load'))
  const all: LoadResult[] = [
    await runLoad(
      instances.map((i) => i.url),
      shop,
      { durationMs: 5_000, clients },
    ),
  ]
  const samples: Record<1 | 2, { reqPerSec: number; p99Ms: number; cpuUsPerReq: number }[]> = { 1: [], 2: [] }
  const cpu = () => instances.reduce((n, i) => n + (cpuTimeUs(i.pid) ?? 0), 0)
  for (let round = 0; round < rounds; round++) {
    for (const n of (round % 2 ? [2, 1] : [1, 2]) as (1 | 2)[]) {
      const before = cpu()
      const result = await runLoad(
        instances.slice(0, n).map((i) => i.url),
        shop,
        { durationMs: roundS * 1000, clients },
      )
      samples[n].push({
        reqPerSec: result.reqPerSec,
        p99Ms: result.p99Ms,
        cpuUsPerReq: (cpu() - before) / result.requests,
      })
      all.push(result)
      process.stderr.write(`round ${round + 1}, ${n} instance(s): ${result.reqPerSec.toFixed(0)} req/s\n`)
    }
  }
  const whole = combined(all)
  const { problems, figures } = await audit(database.url, owner.orgId, whole, receiver)
  const row = (n: 1 | 2) =>
    `| ${n} | ${median(samples[n].map((s) => s.reqPerSec)).toFixed(0)} | ${median(samples[n].map((s) => s.p99Ms)).toFixed(1)} | ${median(samples[n].map((s) => s.cpuUsPerReq)).toFixed(0)} |`
  const ratio = median(samples[2].map((s) => s.reqPerSec)) / median(samples[1].map((s) => s.reqPerSec))
  process.stdout.write(
    [
      `Mixed load, ${clients} clients, ${rounds} × ${roundS} s per configuration (alternating), PostgreSQL server + Redis:`,
      '',
      '| API instances | req/s (median) | p99 ms (median) | app CPU µs/req (all instances) |',
      '|---:|---:|---:|---:|',
      row(1),
      row(2),
      '',
      `Two instances ÷ one: ${ratio.toFixed(2)}×. Whole run: ${whole.requests} requests over ${whole.durationS.toFixed(0)} s; ` +
        `unexpected answers: ${JSON.stringify(whole.unexpected)}; audit: ${JSON.stringify(figures)}; ` +
        `problems: ${problems.length ? problems.join('; ') : 'none'}.`,
      '',
    ].join('\n'),
  )
  if (problems.length || Object.keys(whole.unexpected).length) process.exitCode = 1
} finally {
  await processes.stopAll()
  await receiver.close()
  await database.drop()
}
