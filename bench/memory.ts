// `npx tsx bench/memory.ts`: one `opentill serve` (its workers inside, as `npm start` runs them) under the mixed load
// of issue 13 (test/support/mixed-load.ts: catalog reads, orders, card and gift card payments, refunds, loyalty, a
// kitchen stream, every order event to a webhook receiver) for BENCH_MINUTES (10) with BENCH_CLIENTS (16) clients,
// on the PostgreSQL server and Redis. Samples the process's resident memory (VmRSS) every BENCH_SAMPLE_S (30) seconds
// and prints the samples, the figure at the last minute and the growth from minute 2 to the end, as Markdown.
import { readFileSync } from 'node:fs'
import { withDefaultUser } from '../src/config.ts'
import { HttpsReceiver } from '../test/support/https-receiver.ts'
import { audit, combined, type LoadResult, prepareShop, runLoad } from '../test/support/mixed-load.ts'
import { OpentillProcesses, prepareOrg } from '../test/support/processes.ts'
import { createBenchDatabase } from './lib/database.ts'
import { loadProcessEnv } from './lib/load-env.ts'

const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const minutes = Number(process.env.BENCH_MINUTES ?? 10)
const sampleS = Number(process.env.BENCH_SAMPLE_S ?? 30)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)

/** The process's resident memory, in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

const database = await createBenchDatabase(serverUrl)
const processes = new OpentillProcesses()
const receiver = await new HttpsReceiver().start()
try {
  const env = loadProcessEnv(database.url, redisUrl)
  const owner = await prepareOrg(env, { name: 'Memory', unlimited: true })
  const instance = await processes.serve(env)
  const shop = await prepareShop(instance.url, owner, receiver.url('/load'))
  const samples: { atS: number; rssMb: number }[] = [{ atS: 0, rssMb: rssMb(instance.pid) }]
  const results: LoadResult[] = []
  const started = Date.now()
  while (Date.now() - started < minutes * 60_000) {
    results.push(await runLoad([instance.url], shop, { durationMs: sampleS * 1000, clients }))
    samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMb: rssMb(instance.pid) })
    process.stderr.write(`${samples.at(-1)!.atS} s: ${samples.at(-1)!.rssMb.toFixed(1)} MB\n`)
  }
  const at = (s: number) => samples.reduce((best, x) => (Math.abs(x.atS - s) < Math.abs(best.atS - s) ? x : best))
  const minute2 = at(120)
  const last = samples.at(-1)!
  const whole = combined(results)
  const { problems } = await audit(database.url, owner.orgId, whole, receiver)
  process.stdout.write(
    [
      `One \`opentill serve\` with its workers, ${clients} clients of the mixed load for ${minutes} min (${whole.requests} requests, ${(whole.requests / whole.durationS).toFixed(0)} req/s), PostgreSQL server + Redis:`,
      '',
      '| s | RSS MB |',
      '|---:|---:|',
      ...samples.map((s) => `| ${s.atS} | ${s.rssMb.toFixed(1)} |`),
      '',
      `RSS at ${minute2.atS} s: ${minute2.rssMb.toFixed(1)} MB; at ${last.atS} s: ${last.rssMb.toFixed(1)} MB; growth ${(((last.rssMb - minute2.rssMb) / minute2.rssMb) * 100).toFixed(1)}%. Audit problems: ${problems.length ? problems.join('; ') : 'none'}.`,
      '',
    ].join('\n'),
  )
} finally {
  await processes.stopAll()
  await receiver.close()
  await database.drop()
}
