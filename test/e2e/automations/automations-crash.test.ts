import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, before, describe, test } from 'node:test'
import { eventually } from '../../support/eventually.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'
import { created } from '../../support/two-orgs.ts'

/** Starts the automation worker in a process of its own; resolves once its DBOS has launched. */
async function workerProcess(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/automation-worker-process.ts'], {
    env: { ...process.env, AUTOMATION_DB_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout?.on('data', (chunk) => {
    out += chunk
  })
  await eventually(async () => {
    assert.equal(child.exitCode, null, 'the worker process exited')
    assert.match(out, /ready/)
  }, 60_000)
  return child
}

describe('automations survive a killed process', () => {
  let app: TestApp
  let shop: Shop
  const children: ChildProcess[] = []

  before(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32' })
    shop = await openShop(app)
  })

  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await app?.close()
  })

  const count = (sql: string, params: unknown[]) =>
    app.runtime.database.read(shop.merchant.orgId, async (q) =>
      Number((await q.query<{ n: number }>(sql, params)).rows[0].n),
    )

  test('a run killed with SIGKILL between two steps finishes after a restart, each step done exactly once', async () => {
    const reward = await created(shop.api, '/api/v1/campaigns', {
      name: 'Welcome 20%',
      rules: [{ type: 'percentage', percent: 20 }],
      requires_voucher: true,
      status: 'scheduled',
    })
    const integration = await created(shop.api, '/api/v1/integrations', { name: 'Receiver', type: 'custom' })
    const hook = await created(shop.api, `/api/v1/integrations/${integration.id}/webhooks`, {
      url: 'https://127.0.0.1:9/hook',
      events: ['order.created'],
    })
    const auto = await created(shop.api, '/api/v1/automations', {
      name: 'Tag, wait, tell',
      trigger: { type: 'event', event: 'customer.created' },
      actions: [
        { type: 'tag_customer', tag: 'survivor', customer_path: 'id' },
        { type: 'issue_voucher', campaign_id: reward.id, customer_path: 'id' },
        { type: 'wait', seconds: 3 },
        { type: 'send_webhook', webhook_id: hook.id },
      ],
    })

    const first = await workerProcess(app.runtime.ownerUrl)
    children.push(first)
    const customer = await created(shop.api, '/api/v1/customers', { first_name: 'Kim', email: 'kim@example.com' })
    const runId = await eventually(async () => {
      const [run] = (await shop.api.get(`/api/v1/automations/${auto.id}/runs`)).body.data
      assert.equal(run?.steps[1].status, 'succeeded')
      assert.equal(run.steps[2].status, 'running')
      return run.id as string
    }, 30_000)
    first.kill('SIGKILL')
    await once(first, 'exit')

    const between = (await shop.api.get(`/api/v1/automations/runs/${runId}`)).body.data
    assert.equal(between.status, 'running')
    assert.equal(between.steps[3].status, 'pending', 'the process died before the last step')

    children.push(await workerProcess(app.runtime.ownerUrl))
    const run = await eventually(async () => {
      const current = (await shop.api.get(`/api/v1/automations/runs/${runId}`)).body.data
      assert.equal(current.status, 'succeeded', JSON.stringify(current))
      return current
    }, 60_000)
    assert.deepEqual(
      run.steps.map((s: { status: string; attempts: number }) => [s.status, s.attempts]),
      [
        ['succeeded', 1],
        ['succeeded', 1],
        ['succeeded', 1],
        ['succeeded', 1],
      ],
    )
    const vouchers = (await shop.api.get(`/api/v1/campaigns/${reward.id}/vouchers`)).body.data
    assert.equal(vouchers.length, 1, 'one voucher')
    assert.equal(vouchers[0].customer_id, customer.id)
    assert.equal(run.steps[1].output.voucher_code.slice(-4), vouchers[0].code.slice(-4), 'kept masked')
    assert.deepEqual((await shop.api.get(`/api/v1/customers/${customer.id}`)).body.data.tags, ['survivor'])
    const tagEvents = await count(
      `SELECT count(*) AS n FROM events WHERE org_id = $1 AND type = 'customer.updated' AND data ->> 'id' = $2`,
      [shop.merchant.orgId, customer.id],
    )
    assert.equal(tagEvents, 1, 'one tag')
    const deliveries = await count(
      'SELECT count(*) AS n FROM webhook_deliveries WHERE org_id = $1 AND endpoint_id = $2',
      [shop.merchant.orgId, hook.id],
    )
    assert.equal(deliveries, 1, 'one webhook delivery')
  })
})
