import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { beginRun, claimStalledRuns, endRun, runStep, stalledFlowRuns } from '../../../src/platform/flows/flow-runs.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { finishStalled } from '../../../src/platform/queue/stalled-work.ts'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/**
 * The durable-step mechanism of the flows that call out (platform/flows/flow-runs.ts): a run recorded with its
 * input, its outbound steps recorded once, one claimer handing interrupted runs to their flow. The refund and lay-by
 * flows on it are tested with real crashes in stalled-work-crash and idempotency.
 */
describe('flow runs', () => {
  let app: TestApp
  let a: Merchant
  let b: Merchant
  before(async () => {
    app = await startTestApp()
    a = await createMerchant(app)
    b = await createMerchant(app)
  })
  after(() => app.close())
  const ctxOf = (merchant: Merchant) => systemContext(app.runtime.database, merchant.orgId, [])
  const testFlows = ['test-once', 'test-orgs', 'test-lease', 'test-known', 'request']
  const claimAll = (olderThanS: number) =>
    app.runtime.database.unscoped((q) => claimStalledRuns(q, testFlows, olderThanS, 300, 500))
  const ofTest = (claimed: Awaited<ReturnType<typeof claimAll>>, flow: string) => claimed.filter((r) => r.flow === flow)

  it('records a step once: a run taken over answers the recorded result without calling again', async () => {
    const ctx = ctxOf(a)
    const run = await beginRun(ctx, 'test-once', 'k1', { note: 'first' })
    let calls = 0
    const call = async () => ({ ok: true, ref: `ref-${++calls}` })
    assert.deepEqual(await runStep(ctx, run, 'processor', call), { ok: true, ref: 'ref-1' })
    // A request taking the run over (same key) gets its steps, with its own input.
    const again = await beginRun(ctx, 'test-once', 'k1', { note: 'second' })
    assert.deepEqual(again.steps, { processor: { ok: true, ref: 'ref-1' } })
    assert.deepEqual(await runStep(ctx, again, 'processor', call), { ok: true, ref: 'ref-1' })
    assert.equal(calls, 1)
    const [claimed] = ofTest(await claimAll(0), 'test-once')
    assert.deepEqual(claimed.input, { note: 'second' })
    assert.deepEqual(await runStep(ctx, claimed, 'processor', call), { ok: true, ref: 'ref-1' })
    assert.equal(calls, 1)
    await endRun(ctx, run)
  })

  it('keeps each org to its runs: another org can neither end nor see one', async () => {
    const run = await beginRun(ctxOf(a), 'test-orgs', 'shared-key', {})
    assert.equal(await endRun(ctxOf(b), run), false)
    const seen = await ctxOf(b).db.read((q) => q.query(`SELECT 1 FROM flow_runs WHERE flow = 'test-orgs'`))
    assert.equal(seen.rowCount, 0)
    const claimed = ofTest(await claimAll(0), 'test-orgs')
    assert.deepEqual(
      claimed.map((r) => [r.orgId, r.key]),
      [[a.orgId, 'shared-key']],
    )
    assert.equal(await endRun(ctxOf(a), run), true)
    assert.deepEqual(ofTest(await claimAll(0), 'test-orgs'), [])
  })

  it('claims a run only once no request can be running it, and once per lease', async () => {
    const run = await beginRun(ctxOf(a), 'test-lease', 'k', {})
    assert.deepEqual(ofTest(await claimAll(600), 'test-lease'), [], 'a run younger than a request may run is left')
    assert.equal(ofTest(await claimAll(0), 'test-lease').length, 1)
    assert.deepEqual(ofTest(await claimAll(0), 'test-lease'), [], 'leased to the first claimer')
    await endRun(ctxOf(a), run)
  })

  it('hands each run to its flow in its org, and leaves the runs of flows it does not finish', async () => {
    await beginRun(ctxOf(a), 'test-known', 'k', { n: 1 })
    await beginRun(ctxOf(b), 'test-unknown', 'k', {})
    const finished: string[] = []
    const work = stalledFlowRuns(
      app.runtime.database,
      {
        'test-known': {
          scopes: ['orders:write'],
          async finish(ctx, run) {
            assert.ok(ctx.scopes.has('orders:write'))
            finished.push(`${ctx.orgId} ${run.key} ${JSON.stringify(run.input)}`)
            await endRun(ctx, run)
          },
        },
      },
      app.api.log,
    )
    assert.equal(await finishStalled(app.runtime.database, work, app.api.log, 0), 1)
    assert.deepEqual(finished, [`${a.orgId} k {"n":1}`])
    const left = await ctxOf(b).db.read((q) =>
      q.query(`SELECT claimed_until FROM flow_runs WHERE flow = 'test-unknown'`),
    )
    assert.deepEqual(
      left.rows,
      [{ claimed_until: null }],
      'the run waits, unclaimed, for an instance that knows its flow',
    )
  })
})
