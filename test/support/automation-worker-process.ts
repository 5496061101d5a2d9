// A separate process running the automation worker (and so DBOS) on the database named by AUTOMATION_DB_URL:
// the crash test kills it with SIGKILL and starts another. Prints "ready" once DBOS has launched.
import { loadConfig } from '../../src/config.ts'
import { startAutomationWorker } from '../../src/modules/automations/index.ts'
import { openRuntime } from '../../src/platform/runtime.ts'
import { createServices } from '../../src/services.ts'
import { TEST_SECRETS_KEY } from './harness.ts'

const url = process.env.AUTOMATION_DB_URL
if (!url) throw new Error('AUTOMATION_DB_URL is not set')
// The test app that made the database sealed its secrets with the test key: this process opens them with it.
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: url,
  LOG_LEVEL: 'silent',
  REDIS_URL: '',
  SECRETS_KEY: TEST_SECRETS_KEY,
})
const runtime = await openRuntime(config, { migrate: false })
const worker = startAutomationWorker(runtime, createServices(runtime), { pollMs: 30, scheduleEveryMs: 60_000 })
await worker.launched
process.stdout.write('ready\n')
process.once('SIGTERM', async () => {
  await worker.stop()
  await runtime.close()
  process.exit(0)
})
