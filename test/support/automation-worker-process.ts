// A separate process running the automation worker (and so DBOS) on the database named by AUTOMATION_DB_URL:
// the crash test kills it with SIGKILL and starts another. Prints "ready" once DBOS has launched.
import { startAutomationWorker } from '../../src/modules/automations/index.ts'
import { createServices } from '../../src/services.ts'
import { openTestRuntime } from './harness.ts'

const url = process.env.AUTOMATION_DB_URL
if (!url) throw new Error('AUTOMATION_DB_URL is not set')
const runtime = await openTestRuntime(url)
const worker = startAutomationWorker(runtime, createServices(runtime), { pollMs: 30, scheduleEveryMs: 60_000 })
await worker.launched
process.stdout.write('ready\n')
process.once('SIGTERM', async () => {
  await worker.stop()
  await runtime.close()
  process.exit(0)
})
