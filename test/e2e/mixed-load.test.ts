import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { MERCHANT_SCOPES } from '../../src/modules/auth/index.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { freeLoopbackPort } from '../../src/platform/net/free-port.ts'
import { openRuntime } from '../../src/platform/runtime.ts'
import { createServices } from '../../src/services.ts'
import { scratchServerDatabase } from '../support/harness.ts'
import { HttpsReceiver, testPki } from '../support/https-receiver.ts'
import { audit, prepareShop, runLoad } from '../support/mixed-load.ts'
import { OpentillProcesses } from '../support/processes.ts'

/**
 * The short version of the sustained mixed load (bench/mixed-load.ts runs it for minutes): API instances and a
 * worker as separate processes (two instances when Redis lets them share state), clients hammering catalog reads,
 * orders, payments and refunds, kitchen streams open on every instance, a webhook endpoint; then the audit.
 */
describe('a mixed load, then an audit that nothing was lost or doubled', () => {
  const processes = new OpentillProcesses()
  let scratch: Awaited<ReturnType<typeof scratchServerDatabase>>
  let receiver: HttpsReceiver
  const instances: string[] = []
  let owner: { email: string; password: string; orgId: string }

  before(async () => {
    scratch = await scratchServerDatabase()
    assert.ok(scratch, 'npm test provides a PostgreSQL server (its embedded cluster or DATABASE_URL)')
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: scratch.url,
      REDIS_URL: process.env.REDIS_URL ?? '',
      SEED_DEMO: 'false',
      WORKERS: 'false',
      LOG_LEVEL: 'fatal',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
      BASE_URL: 'https://api.load.example',
      APP_URL: 'https://app.load.example',
    }
    const runtime = await openRuntime(loadConfig({ ...env, PORT: '0' } as Record<string, string>), { migrate: true })
    try {
      const credentials = { email: `load-${Date.now()}@example.test`, password: 'load-password-1' }
      const services = createServices(runtime)
      const { org } = await services.orgs.createOrg({
        name: 'Load',
        ...credentials,
        currency: 'USD',
        plan: 'enterprise',
      })
      // The load measures the system, not the plan's rate limit (as `opentill set-org-limits` would raise it).
      await services.orgs.setCustomLimits(
        systemContext(runtime.database, org.id, MERCHANT_SCOPES),
        1_000_000,
        1_000_000,
      )
      owner = { ...credentials, orgId: org.id }
    } finally {
      await runtime.close()
    }
    for (let i = 0; i < (process.env.REDIS_URL ? 2 : 1); i++) {
      const [port, appPort] = [await freeLoopbackPort(), await freeLoopbackPort()]
      await processes.start('serve', { ...env, PORT: String(port), APP_PORT: String(appPort) })
      instances.push(`http://127.0.0.1:${port}`)
    }
    receiver = await new HttpsReceiver().start()
    const ca = join(tmpdir(), `opentill-load-ca-${process.pid}.pem`)
    writeFileSync(ca, testPki().ca)
    await processes.start('worker', { ...env, NODE_EXTRA_CA_CERTS: ca })
  })
  after(async () => {
    await processes.stopAll()
    await receiver?.close()
    await scratch?.drop()
  })

  it('reconciles stock, payments, gift card and points ledgers, outbox, deliveries and kitchen streams', async (t) => {
    const shop = await prepareShop(instances[0], owner, receiver.url('/load'))
    const result = await runLoad(instances, shop, {
      durationMs: Number(process.env.MIXED_LOAD_S ?? 15) * 1000,
      clients: 8,
    })
    assert.deepEqual(result.unexpected, {}, 'no client got a 5xx or an answer its step does not expect')
    assert.ok(result.ack.orders.size > 20, `only ${result.ack.orders.size} orders were made`)
    assert.ok(result.ack.refunds.size > 0 && (result.byStep.order ?? 0) > result.ack.orders.size, 'stock ran out')
    const { problems, figures } = await audit(scratch!.url, owner.orgId, result, receiver)
    t.diagnostic(JSON.stringify({ instances: instances.length, ...figures, steps: result.byStep }))
    assert.deepEqual(problems, [])
    assert.ok(figures.webhooksReceived >= figures.events)
  })
})
