import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { runFinishers } from '../../../src/flows/index.ts'
import type { PaymentProcessor, ProcessorResult } from '../../../src/modules/payments/index.ts'
import { claimStalledRuns, stalledFlowRuns } from '../../../src/platform/flows/flow-runs.ts'
import { NOT_STORED } from '../../../src/platform/http/idempotency.ts'
import { purgeExpiredKeys } from '../../../src/platform/http/idempotency-store.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { finishStalled } from '../../../src/platform/queue/stalled-work.ts'
import { eventually } from '../../support/eventually.ts'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

/** The processor's reference for a request's `reference`: made on the first call, the same on every repeat. */
function answerOnce(answered: Map<string, string>, reference: string, prefix: string): string {
  let ref = answered.get(reference)
  if (!ref) {
    ref = `${prefix}_${randomBytes(6).toString('hex')}`
    answered.set(reference, ref)
  }
  return ref
}

/**
 * A card processor the test steers: it charges once per reference (as real processors dedupe on their
 * idempotency key), can hold its answer until released, and can lose its answer after approving.
 */
class SteeredProcessor implements PaymentProcessor {
  readonly name = 'steered'
  readonly charges = new Map<string, string>()
  calls = 0
  hold: Promise<void> | undefined
  called: (() => void) | undefined
  loseNextAnswer = false

  /** Holds the next calls' answers: `called` settles when one arrives, `release()` lets them all answer. */
  holdAnswers(): { called: Promise<void>; release: () => void } {
    let open!: () => void
    this.hold = new Promise((r) => {
      open = r
    })
    const called = new Promise<void>((r) => {
      this.called = r
    })
    return {
      called,
      release: () => {
        open()
        this.hold = undefined
        this.called = undefined
      },
    }
  }

  async authorize(request: { reference: string }): Promise<ProcessorResult> {
    this.calls++
    this.called?.()
    await this.hold
    const processorRef = answerOnce(this.charges, request.reference, 'st')
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false
      throw new Error('the connection to the processor was reset after it approved')
    }
    return { ok: true, processorRef }
  }
  captures = 0
  async capture(request: { processorRef: string }): Promise<ProcessorResult> {
    this.captures++
    return { ok: true, processorRef: request.processorRef }
  }
  async void(request: { processorRef: string }): Promise<ProcessorResult> {
    return { ok: true, processorRef: request.processorRef }
  }
  async adjust(request: { processorRef: string }): Promise<ProcessorResult> {
    return { ok: true, processorRef: request.processorRef }
  }
  refusals = 0
  refunds = 0
  loseNextRefundAnswer = false
  /** Money given back, by reference: a repeated reference is answered as the first time, as an idempotency key is. */
  readonly refunded = new Map<string, string>()
  private readonly refundGates: { arrived: () => void; opened: Promise<void> }[] = []
  /** Holds the next refund call alone: `called` settles when it arrives, `release()` lets it answer. */
  holdNextRefund(): { called: Promise<void>; release: () => void } {
    let arrived!: () => void
    let open!: () => void
    const called = new Promise<void>((r) => {
      arrived = r
    })
    this.refundGates.push({ arrived, opened: new Promise((r) => (open = r)) })
    return { called, release: () => open() }
  }
  async refund(request: { reference: string }): Promise<ProcessorResult> {
    this.refunds++
    this.called?.()
    await this.hold
    const gate = this.refundGates.shift()
    if (gate) {
      gate.arrived()
      await gate.opened
    }
    if (this.refusals > 0) {
      this.refusals--
      return { ok: false, code: 'refund_failed', message: 'the processor refused the refund' }
    }
    const processorRef = answerOnce(this.refunded, request.reference, 'str')
    if (this.loseNextRefundAnswer) {
      this.loseNextRefundAnswer = false
      throw new Error('the connection to the processor was reset after it refunded')
    }
    return { ok: true, processorRef }
  }
}

describe('Idempotency-Key: the key first, the work on its own, the answer last', () => {
  const processor = new SteeredProcessor()
  let app: TestApp
  let shop: Shop
  const key = () => ({ 'idempotency-key': `k-${randomBytes(6).toString('hex')}` })

  async function order(total: number) {
    const product = await shop.product(total, { stock: 5 })
    const res = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: product, quantity: 1 }],
    })
    assert.equal(res.status, 201)
    return res.body.data.id as string
  }
  const card = (orderId: string, amount: number) => ({
    order_id: orderId,
    amount,
    method: 'card',
    payment_method_token: 'pm_card_visa',
    capture: true,
  })
  /** A lay-by's body: one unit of a new product, for a new customer, with a card deposit. */
  async function laybyOfOne(price: number, deposit: number) {
    const email = `lay-${randomBytes(4).toString('hex')}@x.example`
    const customer = await shop.api.post('/api/v1/customers', { first_name: 'Lay', email })
    return {
      customer_id: customer.body.data.id as string,
      location_id: shop.locationId,
      lines: [{ product_id: await shop.product(price, { stock: 1 }), quantity: 1 }],
      deposit: { amount: deposit, method: 'card', payment_method_token: 'pm_card_visa' },
    }
  }
  const keyRow = async (orgId: string, k: string) =>
    (
      await app.runtime.database.transaction(orgId, (q) =>
        q.query('SELECT state, work_committed FROM idempotency_keys WHERE org_id = $1 AND key = $2', [orgId, k]),
      )
    ).rows[0]
  /** The steps recorded under a key: its request's run (platform/flows/flow-runs.ts), if it has one. */
  const requestRun = async (k: string) =>
    (
      await app.runtime.database.transaction(shop.merchant.orgId, (q) =>
        q.query<{ steps: Record<string, unknown> }>(
          `SELECT steps FROM flow_runs WHERE org_id = $1 AND flow = 'request' AND (key::jsonb) ->> 1 = $2`,
          [shop.merchant.orgId, k],
        ),
      )
    ).rows[0]?.steps

  const paymentsOf = async (orderId: string) =>
    (
      await app.runtime.database.transaction(shop.merchant.orgId, (q) =>
        q.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE org_id = $1 AND order_id = $2', [
          shop.merchant.orgId,
          orderId,
        ]),
      )
    ).rows[0].n

  before(async () => {
    app = await startTestApp({}, { processor })
    shop = await openShop(app)
  })
  after(() => app.close())

  it('holds no connection and no lock while the processor answers slowly', async () => {
    const orderId = await order(30)
    const { called, release } = processor.holdAnswers()
    const paying = shop.api.post('/api/v1/payments', card(orderId, 20), key())
    await called
    assert.equal(app.runtime.database.poolStats().inUse, 0, 'no pooled connection is held across the call')
    // The order is not locked meanwhile: another tender on it goes through at once.
    const cash = await shop.api.post('/api/v1/payments', { order_id: orderId, amount: 10, method: 'cash' }, key())
    assert.equal(cash.status, 201, JSON.stringify(cash.body))
    release()
    const paid = await paying
    assert.equal(paid.status, 201, JSON.stringify(paid.body))
    assert.equal((await shop.api.get(`/api/v1/orders/${orderId}`)).body.data.status, 'completed')
  })

  it('charges once when the processor approved but its answer was lost: the retry resumes', async () => {
    const orderId = await order(12)
    const k = key()
    const callsBefore = processor.calls
    processor.loseNextAnswer = true
    const first = await shop.api.post('/api/v1/payments', card(orderId, 12), k)
    assert.equal(first.status, 500)
    assert.deepEqual(Object.keys((await requestRun(k['idempotency-key'])) ?? {}), ['payment.id'])
    const retry = await shop.api.post('/api/v1/payments', card(orderId, 12), k)
    assert.equal(retry.status, 201, JSON.stringify(retry.body))
    assert.deepEqual(Object.keys((await requestRun(k['idempotency-key'])) ?? {}).sort(), [
      'payment.authorize',
      'payment.id',
    ])
    assert.equal(processor.calls - callsBefore, 2, 'the processor was asked again, with the same reference')
    assert.equal(processor.charges.get(retry.body.data.id), retry.body.data.processor_reference)
    assert.equal(await paymentsOf(orderId), 1)
    const replay = await shop.api.post('/api/v1/payments', card(orderId, 12), k)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.deepEqual(replay.body, retry.body)
  })

  it('charges a lay-by deposit once when the processor approved but its answer was lost: the retry resumes', async () => {
    const body = await laybyOfOne(50, 20)
    const k = key()
    const charged = processor.charges.size
    processor.loseNextAnswer = true
    assert.equal((await shop.api.post('/api/v1/laybys', body, k)).status, 500)
    const retry = await shop.api.post('/api/v1/laybys', body, k)
    assert.equal(retry.status, 201, JSON.stringify(retry.body))
    assert.equal(processor.charges.size - charged, 1, 'the retry asked again under the same reference')
    const deposit = retry.body.data.payments[0]
    assert.equal(processor.charges.get(deposit.id), deposit.processor_reference)
    assert.deepEqual([retry.body.data.amount_paid, deposit.status], [20, 'captured'])
  })

  it('gives a card authorization back when recording it fails, and the retry charges anew, once', async () => {
    const owner = new pg.Client({ connectionString: app.runtime.ownerUrl })
    await owner.connect()
    // A failure after the processor approved, neither a refusal nor a crash: the database refuses the insert.
    const failingInserts = (table: string) =>
      owner.query(`CREATE OR REPLACE FUNCTION test_fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$
                   BEGIN RAISE EXCEPTION 'injected failure'; END $$;
                   CREATE TRIGGER test_fail_insert BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_fail_insert()`)
    const workingInserts = (table: string) => owner.query(`DROP TRIGGER test_fail_insert ON ${table}`)
    /** The money the processor holds for a payment: charged under its id and not given back. */
    const held = (payment: { id: string; processor_reference: string }) =>
      processor.charges.get(payment.id) === payment.processor_reference && !processor.refunded.has(payment.id)
    try {
      const orderId = await order(14)
      const k = key()
      let given = processor.refunds
      let charged = processor.charges.size
      await failingInserts('payments')
      assert.equal((await shop.api.post('/api/v1/payments', card(orderId, 14), k)).status, 500)
      await workingInserts('payments')
      assert.equal(processor.refunds, given + 1, 'the authorization was given back')
      assert.equal(await requestRun(k['idempotency-key']), undefined, 'its steps forgotten, its run is gone')
      const retry = await shop.api.post('/api/v1/payments', card(orderId, 14), k)
      assert.equal(retry.status, 201, JSON.stringify(retry.body))
      assert.equal(processor.charges.size, charged + 2, 'the retry authorized anew, under a new payment id')
      assert.ok(held(retry.body.data), 'the payment recorded is money the processor holds')
      assert.equal(await paymentsOf(orderId), 1)

      const layby = await laybyOfOne(60, 15)
      const laybyKey = key()
      given = processor.refunds
      charged = processor.charges.size
      await failingInserts('laybys')
      assert.equal((await shop.api.post('/api/v1/laybys', layby, laybyKey)).status, 500)
      await workingInserts('laybys')
      assert.equal(processor.refunds, given + 1)
      const opened = await shop.api.post('/api/v1/laybys', layby, laybyKey)
      assert.equal(opened.status, 201, JSON.stringify(opened.body))
      assert.equal(processor.charges.size, charged + 2)
      assert.ok(held(opened.body.data.payments[0]))
    } finally {
      await owner.end()
    }
  })

  it('answers a retry after a crash between the work and the stored answer without doing the work twice', async () => {
    // A payment: the route resumes, and finds the payment its recorded id names.
    const orderId = await order(9)
    const k = key()
    const paid = await shop.api.post('/api/v1/payments', card(orderId, 9), k)
    assert.equal(paid.status, 201)
    const crashed = (orgId: string, idempotencyKey: string) =>
      app.runtime.database.transaction(orgId, (q) =>
        q.query(
          `UPDATE idempotency_keys SET state = 'in_progress', body = NULL, locked_until = now() - interval '1 second'
           WHERE org_id = $1 AND key = $2`,
          [orgId, idempotencyKey],
        ),
      )
    await crashed(shop.merchant.orgId, k['idempotency-key'])
    const resumed = await shop.api.post('/api/v1/payments', card(orderId, 9), k)
    assert.equal(resumed.status, 201)
    assert.equal(resumed.body.data.id, paid.body.data.id)
    assert.equal(await paymentsOf(orderId), 1)

    // A capture: the retry resumes from the processor's recorded answer and captures nothing twice.
    const authorizedOrder = await order(7)
    const authorized = await shop.api.post('/api/v1/payments', { ...card(authorizedOrder, 7), capture: false }, key())
    assert.equal(authorized.body.data.status, 'requires_capture')
    const capturesBefore = processor.captures
    const ck = key()
    const captured = await shop.api.post(`/api/v1/payments/${authorized.body.data.id}/capture`, {}, ck)
    assert.equal(captured.body.data.status, 'captured')
    await crashed(shop.merchant.orgId, ck['idempotency-key'])
    const recaptured = await shop.api.post(`/api/v1/payments/${authorized.body.data.id}/capture`, {}, ck)
    assert.equal(recaptured.status, captured.status, JSON.stringify(recaptured.body))
    assert.equal(recaptured.body.data.status, 'captured')
    assert.equal(processor.captures - capturesBefore, 1)

    // A customer: the route cannot resume, so the retry is told, and nothing is created twice.
    const c = key()
    const body = { first_name: 'Once', email: `once-${Date.now()}@example.test` }
    assert.equal((await shop.api.post('/api/v1/customers', body, c)).status, 201)
    assert.equal((await keyRow(shop.merchant.orgId, c['idempotency-key'])).work_committed, true)
    await crashed(shop.merchant.orgId, c['idempotency-key'])
    const interrupted = await shop.api.post('/api/v1/customers', body, c)
    assert.equal(interrupted.status, 409)
    assert.equal(interrupted.body.code, 'IDEMPOTENCY_KEY_INTERRUPTED')
    const found = await shop.api.get(`/api/v1/customers?q=${encodeURIComponent(body.email)}`)
    assert.equal(found.body.data.length, 1)
  })

  it('refuses a second attempt while the first runs, and forgets a refused request', async () => {
    const orderId = await order(5)
    const { called, release } = processor.holdAnswers()
    const k = key()
    const first = shop.api.post('/api/v1/payments', card(orderId, 5), k)
    await called
    const second = await shop.api.post('/api/v1/payments', card(orderId, 5), k)
    assert.equal(second.status, 409)
    assert.equal(second.body.code, 'IDEMPOTENCY_KEY_IN_USE')
    assert.ok(second.headers['retry-after'])
    release()
    assert.equal((await first).status, 201)

    // Refused (nothing to pay any more): the key is forgotten, so a corrected retry with it runs.
    const r = key()
    const refused = await shop.api.post('/api/v1/payments', card(orderId, 5), r)
    assert.equal(refused.status, 409)
    assert.equal(await keyRow(shop.merchant.orgId, r['idempotency-key']), undefined)
  })

  it('stores an answer without the secret it showed once', async () => {
    const integration = await shop.api.post('/api/v1/integrations', { name: 'Books', type: 'accounting' })
    const k = key()
    const body = { url: 'https://93.184.215.14/hooks/opentill', events: ['order.created'] }
    const path = `/api/v1/integrations/${integration.body.data.id}/webhooks`
    const first = await shop.api.post(path, body, k)
    assert.equal(first.status, 201, JSON.stringify(first.body))
    assert.match(first.body.data.secret, /^whsec_/)
    const replay = await shop.api.post(path, body, k)
    assert.equal(replay.status, 201)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(replay.body.data.secret, NOT_STORED)
    assert.equal(replay.body.data.id, first.body.data.id)
  })

  it('keeps keys 24 hours: then they are deleted, with the steps of one left unanswered, and a reuse is a new request', async () => {
    const k = key()
    const body = { first_name: 'Day', email: `day-${Date.now()}@example.test` }
    const first = await shop.api.post('/api/v1/customers', body, k)
    assert.equal(first.status, 201)
    // A payment whose answer was lost, never retried: its key keeps the payment's id as a step.
    const unanswered = key()
    processor.loseNextAnswer = true
    assert.equal((await shop.api.post('/api/v1/payments', card(await order(3), 3), unanswered)).status, 500)
    assert.ok(await requestRun(unanswered['idempotency-key']))
    await app.runtime.database.transaction(shop.merchant.orgId, (q) =>
      q.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE org_id = $1 AND key = ANY ($2)`,
        [shop.merchant.orgId, [k['idempotency-key'], unanswered['idempotency-key']]],
      ),
    )
    await eventually(async () => assert.ok((await purgeExpiredKeys(app.runtime.database)) >= 0))
    assert.equal(await keyRow(shop.merchant.orgId, k['idempotency-key']), undefined)
    assert.equal(await keyRow(shop.merchant.orgId, unanswered['idempotency-key']), undefined)
    assert.equal(await requestRun(unanswered['idempotency-key']), undefined)
    const again = await shop.api.post('/api/v1/customers', { ...body, email: `day2-${Date.now()}@example.test` }, k)
    assert.equal(again.status, 201)
    assert.equal(again.headers['idempotent-replayed'], undefined)
  })

  it('finishes a refund whose request ended after the processor refunded, once, also racing the request', async () => {
    const paidOrder = async (total: number) => {
      const id = await order(total)
      assert.equal((await shop.api.post('/api/v1/payments', card(id, total), key())).status, 201)
      return id
    }
    const refundsOf = async (orderId: string) => (await shop.api.get(`/api/v1/orders/${orderId}`)).body.data
    const finish = () =>
      finishStalled(
        app.runtime.database,
        stalledFlowRuns(app.runtime.database, runFinishers(app.services.flows), app.api.log),
        app.api.log,
        0,
      )

    // The processor refunded, but its answer never came back: the refund stays reserved and pending.
    const lost = await paidOrder(15)
    processor.loseNextRefundAnswer = true
    const first = await shop.api.post(`/api/v1/orders/${lost}/refund`, {}, key())
    assert.equal(first.status, 500)
    const pending = await refundsOf(lost)
    assert.deepEqual(
      pending.refunds.map((r: { status: string }) => r.status),
      ['pending'],
    )
    assert.equal(pending.amount_refunded, 15, 'the amount stays reserved: no second refund can take it')
    assert.equal((await shop.api.post(`/api/v1/orders/${lost}/refund`, {}, key())).body.code, 'NOTHING_TO_REFUND')

    // The worker finishes it under the same reference: the processor gives the money back once.
    const refundedBefore = processor.refunded.size
    assert.ok((await finish()) >= 1)
    const finished = await refundsOf(lost)
    assert.equal(finished.status, 'refunded')
    assert.deepEqual(
      finished.refunds.map((r: { status: string }) => r.status),
      ['succeeded'],
    )
    assert.equal(finished.payments[0].amount_refunded, 15)
    assert.equal(processor.refunded.size, refundedBefore, 'no new money left: the reference was known')
    assert.equal(await finish(), 0)

    // A request and the worker finishing the same refund at once settle it once.
    const raced = await paidOrder(8)
    const { called, release } = processor.holdAnswers()
    const refunding = shop.api.post(`/api/v1/orders/${raced}/refund`, {}, key())
    await called
    const claimed = finish()
    release()
    assert.equal((await refunding).status, 201)
    await claimed
    const once = await refundsOf(raced)
    assert.equal(once.amount_refunded, 8)
    assert.equal(once.payments[0].amount_refunded, 8)
    const events = await app.runtime.database.transaction(shop.merchant.orgId, (q) =>
      q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'order.refunded' AND data->>'id' = $2`,
        [shop.merchant.orgId, raced],
      ),
    )
    assert.equal(events.rows[0].n, 1)
  })

  it('cancels a lay-by with its card refunds outside any transaction; a refusal leaves it open', async () => {
    const customer = await shop.api.post('/api/v1/customers', {
      first_name: 'Lay',
      email: `lay-${Date.now()}@x.example`,
    })
    const product = await shop.product(40, { stock: 2 })
    const laybyBody = (quantity: number) => ({
      customer_id: customer.body.data.id,
      location_id: shop.locationId,
      lines: [{ product_id: product, quantity }],
      deposit: { amount: 10, method: 'card', payment_method_token: 'pm_card_visa' },
    })
    // The deposit is authorized before the lay-by's transaction, and given back when the lay-by cannot open.
    const refundsBefore = processor.refunds
    assert.equal((await shop.api.post('/api/v1/laybys', laybyBody(5))).status, 409)
    assert.equal(processor.refunds, refundsBefore + 1)
    const { called: authorizing, release: releaseDeposit } = processor.holdAnswers()
    const opening = shop.api.post('/api/v1/laybys', laybyBody(1))
    await authorizing
    assert.equal(app.runtime.database.poolStats().inUse, 0, 'no connection is held across the deposit')
    releaseDeposit()
    const opened = await opening
    assert.equal(opened.status, 201, JSON.stringify(opened.body))
    const layby = opened.body.data.id as string

    processor.refusals = 1
    const refused = await shop.api.post(`/api/v1/laybys/${layby}/cancel`, {})
    assert.equal(refused.status, 409)
    const still = (await shop.api.get(`/api/v1/laybys/${layby}`)).body.data
    assert.equal(still.status, 'open')
    assert.equal(still.payments[0].amount_refunded, 0)

    const { called, release } = processor.holdAnswers()
    const cancelling = shop.api.post(`/api/v1/laybys/${layby}/cancel`, { reason: 'changed mind' })
    await called
    assert.equal(app.runtime.database.poolStats().inUse, 0, 'no connection is held across the refund')
    assert.equal((await shop.api.get(`/api/v1/laybys/${layby}`)).body.data.status, 'cancelling')
    release()
    const cancelled = await cancelling
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
    assert.equal(cancelled.body.data.status, 'cancelled')
    assert.equal(await shop.level(product), 2)
  })

  it('finishes a lay-by cancellation whose request ended after the processor refunded, once, also racing a request', async () => {
    const customerId = (
      await shop.api.post('/api/v1/customers', { first_name: 'Stall', email: `stall-${Date.now()}@x.example` })
    ).body.data.id
    const product = await shop.product(30, { stock: 2 })
    const openLayby = async () => {
      const opened = await shop.api.post('/api/v1/laybys', {
        customer_id: customerId,
        location_id: shop.locationId,
        lines: [{ product_id: product, quantity: 1 }],
        deposit: { amount: 10, method: 'card', payment_method_token: 'pm_card_visa' },
      })
      assert.equal(opened.status, 201, JSON.stringify(opened.body))
      return opened.body.data.id as string
    }
    const laybyOf = async (id: string) => (await shop.api.get(`/api/v1/laybys/${id}`)).body.data
    const cancelledEvents = async (id: string) =>
      (
        await app.runtime.database.transaction(shop.merchant.orgId, (q) =>
          q.query<{ data: { reason: string; amount_refunded: number } }>(
            `SELECT data FROM events WHERE org_id = $1 AND type = 'layby.cancelled' AND data->>'id' = $2`,
            [shop.merchant.orgId, id],
          ),
        )
      ).rows.map((r) => r.data)
    const finish = () =>
      finishStalled(
        app.runtime.database,
        stalledFlowRuns(app.runtime.database, runFinishers(app.services.flows), app.api.log),
        app.api.log,
        0,
      )

    // The processor refunded the deposit, but its answer never came back: the lay-by stays cancelling.
    const lost = await openLayby()
    processor.loseNextRefundAnswer = true
    assert.equal((await shop.api.post(`/api/v1/laybys/${lost}/cancel`, { reason: 'moved away' }, key())).status, 500)
    assert.equal((await laybyOf(lost)).status, 'cancelling')
    assert.equal(await shop.level(product), 1, 'the goods stay put aside until the money is back')

    // The worker finishes it under the same reference, with the reason it was asked with.
    const refundedBefore = processor.refunded.size
    assert.ok((await finish()) >= 1)
    const finished = await laybyOf(lost)
    assert.equal(finished.status, 'cancelled')
    assert.equal(finished.payments[0].amount_refunded, 10)
    assert.equal(processor.refunded.size, refundedBefore, 'no new money left: the reference was known')
    assert.equal(await shop.level(product), 2)
    assert.deepEqual(
      (await cancelledEvents(lost)).map((e) => [e.reason, e.amount_refunded]),
      [['moved away', 10]],
    )
    assert.equal(await finish(), 0)

    // A request and the worker finishing the same cancellation at once settle it once; the request answers it.
    const raced = await openLayby()
    const { called, release } = processor.holdAnswers()
    const cancelling = shop.api.post(`/api/v1/laybys/${raced}/cancel`, { reason: 'raced' }, key())
    await called
    const refundCalls = processor.refunds
    const claimed = finish()
    // Both are at the processor before either hears back.
    await eventually(async () => assert.equal(processor.refunds, refundCalls + 1))
    release()
    const answered = await cancelling
    assert.equal(answered.status, 200, JSON.stringify(answered.body))
    assert.equal(answered.body.data.status, 'cancelled')
    await claimed
    assert.equal((await laybyOf(raced)).payments[0].amount_refunded, 10)
    assert.equal(await shop.level(product), 2)
    assert.equal((await cancelledEvents(raced)).length, 1)
  })
})

describe('a lay-by cancellation refused, then asked again, while the worker still finishes the first', () => {
  const processor = new SteeredProcessor()
  let app: TestApp
  let shop: Shop
  before(async () => {
    app = await startTestApp({}, { processor })
    shop = await openShop(app)
  })
  after(() => app.close())

  it("leaves the second cancellation alone when the first's late finisher is refused", async () => {
    const customer = await shop.api.post('/api/v1/customers', { first_name: 'Twice', email: 'twice@x.example' })
    const opened = await shop.api.post('/api/v1/laybys', {
      customer_id: customer.body.data.id,
      location_id: shop.locationId,
      lines: [{ product_id: await shop.product(40, { stock: 1 }), quantity: 1 }],
      deposit: { amount: 10, method: 'card', payment_method_token: 'pm_card_visa' },
    })
    assert.equal(opened.status, 201, JSON.stringify(opened.body))
    const id = opened.body.data.id as string
    const laybyOf = async () => (await shop.api.get(`/api/v1/laybys/${id}`)).body.data
    const key = () => ({ 'idempotency-key': `k-${randomBytes(6).toString('hex')}` })

    // The first cancellation waits at the processor; the worker takes its run over and waits there too.
    const first = processor.holdNextRefund()
    const cancelling = shop.api.post(`/api/v1/laybys/${id}/cancel`, { reason: 'first' }, key())
    await first.called
    const [run] = (
      await app.runtime.database.unscoped((q) => claimStalledRuns(q, ['layby-cancellation'], 0, 300, 50))
    ).filter((r) => r.key === id)
    assert.ok(run)
    const late = processor.holdNextRefund()
    const worker = runFinishers(app.services.flows)['layby-cancellation'].finish(
      systemContext(app.runtime.database, shop.merchant.orgId, ['orders:write']),
      run,
    )
    await late.called

    // The processor refuses the first: the lay-by is open again, its run ended.
    processor.refusals = 1
    first.release()
    assert.equal((await cancelling).status, 409)
    assert.equal((await laybyOf()).status, 'open')

    // Asked again: a new run, waiting at the processor.
    const second = processor.holdNextRefund()
    const again = shop.api.post(`/api/v1/laybys/${id}/cancel`, { reason: 'second' }, key())
    await second.called

    // The worker's late refusal belongs to the first run: it releases nothing of the second.
    processor.refusals = 1
    late.release()
    await assert.rejects(worker, { code: /PROCESSOR_REFUSED/ })
    assert.equal((await laybyOf()).status, 'cancelling')

    second.release()
    const answered = await again
    assert.equal(answered.status, 200, JSON.stringify(answered.body))
    assert.equal(answered.body.data.status, 'cancelled')
    assert.equal((await laybyOf()).payments[0].amount_refunded, 10)
  })
})

describe('a card processor that does not answer', () => {
  const processor = new SteeredProcessor()
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp({ PROCESSOR_TIMEOUT_MS: '300' }, { processor })
    shop = await openShop(app)
  })
  after(() => app.close())

  it('answers 503 PROCESSOR_TIMEOUT at its deadline, and the retry with the same key charges once', async () => {
    const product = await shop.product(15, { stock: 5 })
    const order = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: product, quantity: 1 }],
    })
    const k = { 'idempotency-key': `k-${randomBytes(6).toString('hex')}` }
    const body = { order_id: order.body.data.id, amount: 15, method: 'card', payment_method_token: 'pm_card_visa' }
    // The processor holds its answer until released: before, the request waited as long as it did (past the
    // key's 60-second lock, so a retry could run beside it).
    const { release } = processor.holdAnswers()
    const first = await shop.api.post('/api/v1/payments', body, k)
    assert.equal(first.status, 503, JSON.stringify(first.body))
    assert.equal(first.body.code, 'PROCESSOR_TIMEOUT')
    assert.equal(first.headers['retry-after'], '1')
    assert.equal(processor.calls, 1)
    release()
    const retry = await shop.api.post('/api/v1/payments', body, k)
    assert.equal(retry.status, 201, JSON.stringify(retry.body))
    assert.equal(processor.charges.size, 1, 'one charge: the processor answered the same reference again')
    assert.equal(processor.charges.get(retry.body.data.id), retry.body.data.processor_reference)
  })
})
