// A process that starts a refund (CRASH_WORK=refund:<order id>) or a lay-by cancellation (layby:<lay-by id>) of
// CRASH_ORG_ID on CRASH_DB_URL and stops at the card processor, whose answer never comes: it prints "at the
// processor", and the test kills it there (SIGKILL), between the work's first step and its last.
import { TestProcessor } from '../../src/modules/payments/index.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { createServices } from '../../src/services.ts'
import { openTestRuntime } from './harness.ts'

class AnswerlessProcessor extends TestProcessor {
  override refund(): Promise<never> {
    process.stdout.write('at the processor\n')
    return new Promise(() => {})
  }
}

const { CRASH_DB_URL: url, CRASH_ORG_ID: orgId, CRASH_WORK: work = '' } = process.env
if (!url || !orgId) throw new Error('CRASH_DB_URL and CRASH_ORG_ID are not set')
const runtime = await openTestRuntime(url)
const services = createServices(runtime, { processor: new AnswerlessProcessor() })
const ctx = systemContext(runtime.database, orgId, ['orders:write'])
const [kind, id] = work.split(':')
if (kind === 'refund') await services.flows.refund.refund(ctx, id, {})
else if (kind === 'layby') await services.flows.laybys.cancel(ctx, id, { reason: 'killed at the processor' })
else throw new Error(`CRASH_WORK ${work} is neither refund:<id> nor layby:<id>`)
