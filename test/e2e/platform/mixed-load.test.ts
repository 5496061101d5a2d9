import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { scratchServerDatabase } from '../../support/harness.ts'
import { HttpsReceiver, testPki } from '../../support/https-receiver.ts'
import { audit, prepareShop, runLoad } from '../../support/mixed-load.ts'
import { OpentillProcesses, prepareOrg } from '../../support/processes.ts'

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
    owner = await prepareOrg(env, { name: 'Load', unlimited: true })
    for (let i = 0; i < (process.env.REDIS_URL ? 2 : 1); i++) instances.push((await processes.serve(env)).url)
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
    // Two units of each scarce product: they sell out within the first few dozen orders, however slow the machine.
    const shop = await prepareShop(instances[0], owner, receiver.url('/load'), { scarceStock: 2 })
    const result = await runLoad(instances, shop, {
      durationMs: Number(process.env.MIXED_LOAD_S ?? 15) * 1000,
      clients: 8,
    })
    assert.deepEqual(result.unexpected, {}, 'no client got a 5xx or an answer its step does not expect')
    assert.ok(result.ack.orders.size > 20, `only ${result.ack.orders.size} orders were made`)
    assert.ok(result.ack.refunds.size > 0, 'no refund was made')
    assert.ok((result.byStep.order ?? 0) > result.ack.orders.size, 'no order was refused for want of stock')
    const { problems, figures } = await audit(scratch!.url, owner.orgId, result, receiver)
    t.diagnostic(JSON.stringify({ instances: instances.length, ...figures, steps: result.byStep }))
    assert.deepEqual(problems, [])
    assert.ok(figures.webhooksReceived >= figures.events)
  })
})
