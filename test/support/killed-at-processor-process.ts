// A process that starts a refund (CRASH_WORK=refund:<order id>) or a lay-by cancellation (layby:<lay-by id>) of
// CRASH_ORG_ID on CRASH_DB_URL and stops at the card processor: it prints "at the processor", and the test kills it
// there (SIGKILL), between the work's first step and its last. With CRASH_AFTER_ANSWER=1 the processor answers once
// the process gets SIGUSR2, so that the test can kill it after the answer was recorded as the run's step.
import { TestProcessor } from '../../src/modules/payments/index.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { createServices } from '../../src/services.ts'
import { openTestRuntime } from './harness.ts'

class HeldProcessor extends TestProcessor {
  override refund(request: Parameters<TestProcessor['refund']>[0]) {
    process.stdout.write('at the processor\n')
    if (process.env.CRASH_AFTER_ANSWER !== '1') return new Promise<never>(() => {})
    return new Promise<Awaited<ReturnType<TestProcessor['refund']>>>((answer) =>
      process.once('SIGUSR2', () => answer(super.refund(request))),
    )
  }
}

const { CRASH_DB_URL: url, CRASH_ORG_ID: orgId, CRASH_WORK: work = '' } = process.env
if (!url || !orgId) throw new Error('CRASH_DB_URL and CRASH_ORG_ID are not set')
const runtime = await openTestRuntime(url)
const services = createServices(runtime, { processor: new HeldProcessor() })
const ctx = systemContext(runtime.database, orgId, ['orders:write'])
const [kind, id] = work.split(':')
if (kind === 'refund') await services.flows.refund.refund(ctx, id, {})
else if (kind === 'layby') await services.flows.laybys.cancel(ctx, id, { reason: 'killed at the processor' })
else throw new Error(`CRASH_WORK ${work} is neither refund:<id> nor layby:<id>`)
