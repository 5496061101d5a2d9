// Runs the test files with node:test (scripts/test-plan.ts says which, in which processes; Node 20's --test takes a
// file list, not globs), each process's entry compiled into JavaScript first (scripts/test-bundle.ts). Without
// DATABASE_URL the run starts one embedded PostgreSQL cluster for itself, and each test file makes its own database
// on it, exactly as on a server (docs/testing.md).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEmbeddedServer } from '../src/platform/db/embedded.ts'
import { ensureDashboardBuilt } from './build-dashboard.mjs'
import { bundleTestEntries } from './test-bundle.ts'
import { planTestRun } from './test-plan.ts'
import { createMigratedTemplate } from './test-template.ts'

const args = process.argv.slice(2)
const plan = planTestRun(
  args.filter((a) => a !== '--engine-dependent'),
  args.includes('--engine-dependent'),
)
if (plan.files.length === 0) {
  console.error('no test files matched')
  process.exit(1)
}

// The generated files and the cluster's directory go however the run ends (its end, an error, an interrupt); an
// interrupt before the tests start ends the run, after it the tests' process is told and the run ends with it.
const generated: { cleanUp(): void }[] = [plan]
process.on('exit', () => {
  for (const files of generated) files.cleanUp()
})
let child: ChildProcess | undefined
let cleanUp = async () => {}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => (child ? child.kill(signal) : void cleanUp().finally(() => process.exit(1))))

// The back office's pages are tested as built: from its sources as they are now.
await ensureDashboardBuilt()
const bundled = await bundleTestEntries(plan.entries)
generated.push(bundled)

const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' }
if (!env.DATABASE_URL) {
  const dir = mkdtempSync(join(tmpdir(), 'opentill-test-cluster-'))
  generated.push({ cleanUp: () => rmSync(dir, { recursive: true, force: true }) })
  // A throw-away cluster: durability buys nothing here, so the run does not wait for the disk.
  const server = await openEmbeddedServer(dir, {
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  })
  env.DATABASE_URL = server.url
  cleanUp = () => server.stop().catch(() => {})
  console.log(`tests on an embedded PostgreSQL cluster in ${dir}`)
}

// Test files copy one migrated database instead of migrating their own (test/support/harness.ts).
if (/^postgres(ql)?:/.test(env.DATABASE_URL)) {
  const template = await createMigratedTemplate(env.DATABASE_URL)
  env.OPENTILL_TEST_TEMPLATE = template.name
  const dropCluster = cleanUp
  cleanUp = async () => {
    await template.drop().catch(() => {})
    await dropCluster()
  }
}

// A test or hook that hangs fails by name after five minutes (Node 20 gives each file of the command line the same
// limit, and a group of six files takes a minute or two on a busy machine); a run that still does not end (a file
// whose process will not exit) is stopped after twenty, so CI reports it instead of waiting out its own limit.
const RUN_LIMIT_MS = 20 * 60_000
const tests = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? '2'}`,
    '--test-timeout=300000',
    '--test-reporter=spec',
    ...bundled.entries,
  ],
  { stdio: 'inherit', env },
)
child = tests
const limit = setTimeout(() => {
  console.error('the test run did not end within 20 minutes')
  tests.kill('SIGKILL')
}, RUN_LIMIT_MS)
const status = await new Promise<number>((done) => tests.on('exit', (code) => done(code ?? 1)))
clearTimeout(limit)
await cleanUp()
process.exit(status)
