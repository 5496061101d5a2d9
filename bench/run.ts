// `npm run bench`: starts the real server on each engine (PostgreSQL server with Redis, then the embedded
// PostgreSQL of a fresh data directory, as `npm start` runs it),
// seeds 10,000 products, runs every bench/scenarios/*.ts against it and writes the table to docs/benchmarks.md.
// Environment: DATABASE_URL (server to create a fresh bench database on; default postgres://127.0.0.1:5432/test),
// REDIS_URL (default redis://127.0.0.1:6379), BENCH_ENGINES (server,embedded), BENCH_DURATION_S (5),
// BENCH_ROUNDS (3), BENCH_SCENARIOS (comma-separated file names to run only some).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { withDefaultUser } from '../src/config.ts'
import { benchServerBundle } from './lib/server-bundle.ts'
import type { BenchRow, BenchTarget, Scenario } from './lib/types.ts'

const serverUrl = withDefaultUser(process.env.DATABASE_URL || 'postgres://127.0.0.1:5432/test')!
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const engines = (process.env.BENCH_ENGINES ?? 'server,embedded')
  .split(',')
  .map((e) => e.trim()) as BenchTarget['engine'][]
const durationS = Number(process.env.BENCH_DURATION_S ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const only = process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim())

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

interface Started {
  child: ChildProcess
  info: Omit<BenchTarget, 'engine' | 'durationS' | 'rounds'> & { restBytes: number }
}

async function startServer(env: Record<string, string>): Promise<Started> {
  // BENCH_SERVER_NODE_ARGS passes Node flags to the measured process only (say `--cpu-prof --cpu-prof-dir=/tmp/p`).
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...nodeArgs, serverBundle], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
  })
  return { child, info: JSON.parse(first) }
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

async function loadScenarios(): Promise<[string, Scenario][]> {
  const dir = new URL('./scenarios/', import.meta.url)
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .filter((f) => !only || only.includes(f.replace(/\.ts$/, '')))
    .sort()
  return Promise.all(
    files.map(async (f) => [f, (await import(new URL(f, dir).href)).default as Scenario] as [string, Scenario]),
  )
}

function table(rows: BenchRow[]): string {
  const lines = [
    '| Engine | Scenario | req/s | p99 (ms) | vs bare | app CPU µs/req | Target |',
    '|---|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.scenario} | ${Math.round(r.reqPerSec).toLocaleString('en')} | ${r.p99Ms} | ${
          r.ratio === undefined ? '' : `${(r.ratio * 100).toFixed(0)}%`
        } | ${r.cpuUsPerReq === undefined ? '' : Math.round(r.cpuUsPerReq)} | ${r.target ?? ''}${r.note ? ` ${r.note}` : ''} |`,
    ),
  ]
  return lines.join('\n')
}

const scenarios = await loadScenarios()
const serverBundle = await benchServerBundle(new URL('..', import.meta.url).pathname)
const rowsByScenario = new Map<string, BenchRow[]>(scenarios.map(([file]) => [file.replace(/\.ts$/, ''), []]))
for (const engine of engines) {
  let removeData: (() => Promise<void>) | undefined
  const env: Record<string, string> = {}
  if (engine === 'server') {
    const name = `opentill_bench_${randomBytes(4).toString('hex')}`
    await withAdmin((c) => c.query(`CREATE DATABASE ${name}`))
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    env.BENCH_DATABASE_URL = url.toString()
    env.BENCH_REDIS_URL = redisUrl
    removeData = () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {})
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'opentill-bench-'))
    env.BENCH_DATA_DIR = dataDir
    removeData = async () => rmSync(dataDir, { recursive: true, force: true })
  }
  console.error(`[bench] ${engine}: starting the server and seeding 10,000 products`)
  const { child, info } = await startServer(env)
  try {
    const target: BenchTarget = { engine, durationS, rounds, serverPid: child.pid, ...info }
    for (const [file, scenario] of scenarios) {
      console.error(`[bench] ${engine}: ${file}`)
      const produced = await scenario(target)
      rowsByScenario.get(file.replace(/\.ts$/, ''))!.push(...produced)
      console.log(table(produced))
    }
  } finally {
    await stopServer(child)
    await removeData?.()
  }
}

const method = `Produced by \`npm run bench\` (bench/run.ts): Node ${process.version}, ${cpus().length} CPU cores
(${cpus()[0]?.model.trim() ?? 'unknown'}), shared with other work while it ran. Each engine's server runs in its own
process on 127.0.0.1 with 10,000 products in one org; autocannon runs in the benchmark's process with 50
connections; the loads of a scenario alternate (${rounds} rounds of ${durationS} s each after a 1 s warm-up) and each
figure is the median of its rounds. "vs bare" is the rate relative to a bare Fastify route that serves the REST
answer's bytes from memory in the same process as the app. "app CPU µs/req" is the CPU time (user + system) the
app's process spent per request, which the machine's other load disturbs far less than req/s.`

/** Replaces the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, or appends the block. */
function replaceBlock(doc: string, name: string, body: string): string {
  const block = `<!-- bench:${name} -->\n${body}\n<!-- /bench:${name} -->`
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`)
  return pattern.test(doc) ? doc.replace(pattern, () => block) : `${doc.trimEnd()}\n\n${block}\n`
}

// Each scenario's table has its own block, so a run of some scenarios (BENCH_SCENARIOS) keeps the others'
// figures, and the notes written around the blocks are kept.
const docPath = new URL('../docs/benchmarks.md', import.meta.url)
let doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '# Benchmarks\n'
doc = replaceBlock(doc, 'method', method)
const day = new Date().toISOString().slice(0, 10)
for (const [name, rows] of rowsByScenario) {
  if (rows.length) doc = replaceBlock(doc, name, `Scenario \`${name}\`, measured ${day}:\n\n${table(rows)}`)
}
writeFileSync(docPath, doc)
console.error('[bench] wrote docs/benchmarks.md')
