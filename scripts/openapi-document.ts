// `npm run client:generate`: the API's OpenAPI document as the server serves it, written to
// packages/client/openapi.json, and the client's types generated from it (packages/client/src/schema.ts). Runs the
// app on a throw-away embedded database (DATABASE_URL, when set, is used instead). The document never depends on
// the deployment: the same code gives the same document, which a test compares with the committed types.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { openRuntime } from '../src/platform/runtime.ts'

const client = new URL('../packages/client/', import.meta.url).pathname
const runtime = await openRuntime(
  loadConfig({
    NODE_ENV: 'test',
    // memory://: a throw-away embedded cluster, removed when the runtime closes.
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
  }),
  { migrate: true },
)
try {
  const { api } = await buildApp(runtime)
  const document = (await api.inject({ method: 'GET', url: '/openapi.json' })).json()
  await api.close()
  writeFileSync(join(client, 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`)
} finally {
  await runtime.close()
}
const generated = spawnSync('npm', ['run', 'generate'], { cwd: client, stdio: 'inherit' })
process.exit(generated.status ?? 1)
