import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { runFinishers } from '../../../src/flows/index.ts'
import { TestProcessor } from '../../../src/modules/payments/index.ts'
import { stalledFlowRuns } from '../../../src/platform/flows/flow-runs.ts'
import { finishStalled } from '../../../src/platform/queue/stalled-work.ts'
import { eventually } from '../../support/eventually.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, outbox, type Shop } from '../../support/shop.ts'

/**
 * A refund and a lay-by cancellation whose process is killed (kill -9) while the card processor holds its
 * answer: the work is left between its first step and its last, and the worker finishes it, once.
 */
describe('refunds and lay-by cancellations survive a process killed at the processor', () => {
  let app: TestApp
  let shop: Shop
  const children: ChildProcess[] = []

  /** Counts the refunds this process's processor is asked for (the killed processes have their own). */
  class CountingProcessor extends TestProcessor {
    refunds = 0
    override refund(request: Parameters<TestProcessor['refund']>[0]) {
      this.refunds++
      return super.refund(request)
    }
  }
  const processor = new CountingProcessor()

  before(async () => {
    app = await startTestApp({}, { processor })
    shop = await openShop(app)
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await app.close()
  })

  /** Runs the work in a process of its own and waits until it is at the processor. */
  async function atProcessor(work: string, env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/killed-at-processor-process.ts'], {
      env: {
        ...process.env,
        ...env,
        CRASH_DB_URL: app.runtime.ownerUrl,
        CRASH_ORG_ID: shop.merchant.orgId,
        CRASH_WORK: work,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
    })
    await eventually(async () => {
      assert.equal(child.exitCode, null, 'the process ended before the processor')
      assert.match(out, /at the processor/)
    }, 60_000)
    return child
  }
  /** Runs the work in a process of its own, waits until it is at the processor, and kills it there. */
  async function killedAtProcessor(work: string) {
    const child = await atProcessor(work)
    child.kill('SIGKILL')
    await once(child, 'exit')
  }
  async function paidOrder(amount: number): Promise<string> {
    const product = await shop.product(amount, { stock: 3 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: product, quantity: 1 }],
      })
    ).body.data
    const paid = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    assert.equal(paid.status, 201)
    return order.id
  }
  const finishNow = () =>
    finishStalled(
      app.runtime.database,
      stalledFlowRuns(app.runtime.database, runFinishers(app.services.flows), app.api.log),
      app.api.log,
      0,
    )

  it('leaves a refund pending with its amount reserved, and the worker settles it once', async () => {
    const product = await shop.product(25, { stock: 3 })
    const order = (
      await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: product, quantity: 1 }],
      })
    ).body.data
    const paid = await shop.api.post('/api/v1/payments', {
      order_id: order.id,
      amount: 25,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    assert.equal(paid.status, 201)

    await killedAtProcessor(`refund:${order.id}`)
    const left = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.deepEqual(
      left.refunds.map((r: { status: string }) => r.status),
      ['pending'],
    )
    assert.equal(left.amount_refunded, 25, 'the amount stays reserved: nothing can refund it twice')

    assert.ok((await finishNow()) >= 1)
    const done = (await shop.api.get(`/api/v1/orders/${order.id}`)).body.data
    assert.equal(done.status, 'refunded')
    assert.deepEqual(
      done.refunds.map((r: { status: string }) => r.status),
      ['succeeded'],
    )
    assert.equal(done.payments[0].amount_refunded, 25)
    const events = await outbox(app, shop.merchant.orgId, 'order.refunded')
    assert.equal(events.filter((e) => e.id === order.id).length, 1)
  })

  it('finishes a refund killed after the processor answered from the answer its run recorded, calling no processor', async () => {
    const orderId = await paidOrder(12)
    const child = await atProcessor(`refund:${orderId}`, { CRASH_AFTER_ANSWER: '1' })
    // The order held, the settlement cannot start: the process answers, records the answer and waits at the lock.
    const holder = new pg.Client({ connectionString: app.runtime.ownerUrl })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('SELECT 1 FROM orders WHERE org_id = $1 AND id = $2 FOR UPDATE', [
        shop.merchant.orgId,
        orderId,
      ])
      child.kill('SIGUSR2')
      await eventually(async () => {
        const runs = await holder.query<{ steps: Record<string, { ok: boolean }> }>(
          `SELECT steps FROM flow_runs WHERE org_id = $1 AND flow = 'refund'`,
          [shop.merchant.orgId],
        )
        assert.equal(runs.rows[0]?.steps.processor?.ok, true)
      })
      child.kill('SIGKILL')
      await once(child, 'exit')
    } finally {
      await holder.query('ROLLBACK')
      await holder.end()
    }
    assert.equal((await shop.api.get(`/api/v1/orders/${orderId}`)).body.data.refunds[0].status, 'pending')

    const asked = processor.refunds
    assert.ok((await finishNow()) >= 1)
    const done = (await shop.api.get(`/api/v1/orders/${orderId}`)).body.data
    assert.equal(done.status, 'refunded')
    assert.equal(done.payments[0].amount_refunded, 12)
    assert.equal(processor.refunds, asked, 'the recorded answer stood: the processor was not asked again')
    assert.equal(await finishNow(), 0)
  })

  it('leaves a lay-by cancelling with its goods put aside, and the worker cancels it once', async () => {
    const product = await shop.product(40, { stock: 2 })
    const customer = await shop.api.post('/api/v1/customers', { first_name: 'Killed', email: 'killed@x.example' })
    const opened = await shop.api.post('/api/v1/laybys', {
      customer_id: customer.body.data.id,
      location_id: shop.locationId,
      lines: [{ product_id: product, quantity: 1 }],
      deposit: { amount: 10, method: 'card', payment_method_token: 'pm_card_visa' },
    })
    assert.equal(opened.status, 201, JSON.stringify(opened.body))
    const layby = opened.body.data.id as string

    await killedAtProcessor(`layby:${layby}`)
    assert.equal((await shop.api.get(`/api/v1/laybys/${layby}`)).body.data.status, 'cancelling')
    assert.equal(await shop.level(product), 1, 'the goods stay put aside until the money is back')

    assert.ok((await finishNow()) >= 1)
    const done = (await shop.api.get(`/api/v1/laybys/${layby}`)).body.data
    assert.equal(done.status, 'cancelled')
    assert.equal(done.payments[0].amount_refunded, 10)
    assert.equal(await shop.level(product), 2)
    const events = (await outbox(app, shop.merchant.orgId, 'layby.cancelled')).filter((e) => e.id === layby)
    assert.deepEqual(
      events.map((e) => e.reason),
      ['killed at the processor'],
    )
    assert.equal(await finishNow(), 0)
  })
})
