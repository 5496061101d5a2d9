// Runs every test file with node:test through tsx. Node 20's --test takes a file list, not globs.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return collect(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

const filter = process.argv.slice(2)
const files = collect('test')
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort()
if (files.length === 0) {
  console.error('no test files matched')
  process.exit(1)
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2'
// A test or hook that hangs fails by name after two minutes; a run that still does not end (a file whose
// process will not exit) is stopped after twenty, so CI reports it instead of waiting out its own limit.
const RUN_LIMIT_MS = 20 * 60_000
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=120000',
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' }, timeout: RUN_LIMIT_MS, killSignal: 'SIGKILL' },
)
if (result.error) console.error(`the test run did not end: ${result.error.message}`)
process.exit(result.status ?? 1)
