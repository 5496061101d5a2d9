import { newId } from '../../platform/crypto/ids.ts'
import { rowBinding, type SecretBox } from '../../platform/crypto/secret-box.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import { forget, once, type RequestContext } from '../../platform/http/context.ts'
import { allocateRefund, toMajor, toMinor } from '../../platform/money/money.ts'
import { assertTipsTaken, assertWithinCap } from '../../platform/money/tips.ts'
import type { OrgsService } from '../orgs/index.ts'
import type { OrderPaymentsPort, RefundPart } from './order-port.ts'
import { PaymentErrors } from './payments.errors.ts'
import * as repo from './payments.repo.ts'
import type { CreatePaymentBody, CreatePaymentInput, Payment } from './payments.schemas.ts'
import type { PaymentRow } from './payments.tables.ts'
import type { PaymentProcessor, ProcessorResult } from './processor.ts'
import { TENDER_FIELDS, type Tender, type TenderField } from './tender.ts'

/**
 * The API's methods: the tenders this installation is built with (services.ts). `external` is money taken outside
 * OpenTill (a cheque, a bank transfer).
 */
export const PAYMENT_METHODS = ['card', 'cash', 'gift_card', 'external'] as const
/** What a new org takes until it chooses. */
const DEFAULT_METHODS: string[] = ['card', 'cash', 'gift_card']

/** What a payment is for: an order, or a lay-by (whose payments are always captured). */
export interface PaymentTarget {
  orderId: string | null
  laybyId: string | null
  /**
   * Inside the payment's transaction: locks the target; `outstanding` is what may still be paid, before intents;
   * `tips` what a target that takes tips (an order) has of one and its total before it.
   */
  lock(
    ctx: RequestContext,
  ): Promise<
    | { payable: true; outstanding: bigint; tips?: { tip: bigint; totalBeforeTip: bigint } }
    | { payable: false; why: string }
  >
  /** Inside the same transaction, once money is captured. */
  captured(ctx: RequestContext, amount: bigint): Promise<void>
  /** Inside the same transaction: the target's tip and total grow by `delta` (signed), within the cap checked. */
  addTip?(ctx: RequestContext, delta: bigint): Promise<void>
}

/**
 * The order side of a payment, given by flows/take-payment.ts so that payments never call orders: the order
 * locked against concurrent payments and refunds, a capture counted (an order paid in full completes and its
 * points accrue), its tip moved. Each runs inside the payment's transaction.
 */
export interface OrderBalance {
  lockForPayment(
    ctx: RequestContext,
    orderId: string,
  ): Promise<{ status: string; total: bigint; capturedTotal: bigint; refundedTotal: bigint; tip: bigint }>
  recordCapture(ctx: RequestContext, orderId: string, amount: bigint): Promise<void>
  /** The order's tip and total grow by `delta` (signed); the payment checked the store's cap. */
  addTip(ctx: RequestContext, orderId: string, delta: bigint): Promise<void>
}

/** A processor's authorization taken ahead of the transaction that records it (a lay-by's deposit by card). */
export interface CardHold {
  id: string
  method: string
  processorRef: string
  amount: bigint
  currency: string
  capture: boolean
}

function toPayment(row: PaymentRow): Payment {
  const c = row.currency
  return {
    id: row.id,
    order_id: row.order_id,
    layby_id: row.layby_id,
    method: row.method,
    amount: toMajor(row.amount, c),
    currency: c,
    status: row.status,
    amount_refunded: toMajor(row.refunded_amount, c),
    processor: row.processor,
    processor_reference: row.processor_ref,
    gift_card_id: row.gift_card_id,
    shift_id: row.shift_id,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    tip: toMajor(row.tip_amount, c),
    cash_tendered: row.cash_tendered === null ? null : toMajor(row.cash_tendered, c),
    change_given: row.cash_tendered === null ? null : toMajor(BigInt(row.cash_tendered) - BigInt(row.amount), c),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    captured_at: row.captured_at,
  }
}

interface PaymentsDeps {
  orgs: OrgsService
  orderBalance: OrderBalance
  /** Every way to pay the installation offers, each once (docs/commerce.md "Tenders"). */
  tenders: readonly Tender[]
  /** Seals the token of a card taken offline until the worker authorizes it. */
  secrets: SecretBox
}

export function createPaymentsService(deps: PaymentsDeps) {
  const { orgs, orderBalance } = deps
  const tenders = new Map(deps.tenders.map((t) => [t.method, t]))
  const tenderOf = (method: string): Tender => {
    const tender = tenders.get(method)
    if (!tender)
      throw invalid(
        'method',
        `is not a way to pay of this installation (${[...tenders.keys()].join(', ')})`,
        'invalid_enum',
      )
    return tender
  }
  /** The processor of a payment's tender: what authorized it is what captures, voids, adjusts and refunds it. */
  const processorOf = (row: PaymentRow): PaymentProcessor => {
    const processor = tenderOf(row.method).processor
    if (!processor) throw new Error(`a ${row.method} payment has no processor`)
    return processor
  }
  /** The processor named in `GET /payments/methods`: the card's, when the installation takes cards. */
  const processorName = deps.tenders.find((t) => t.processor)?.processor?.name ?? 'none'
  /** Which tenders take a field, for the message that refuses it elsewhere ("applies to cash payments only"). */
  const takers = (field: TenderField) =>
    deps.tenders
      .filter((t) => t.fields.includes(field))
      .map((t) => t.method)
      .join(' or ')

  const orderTarget = (orderId: string): PaymentTarget => ({
    orderId,
    laybyId: null,
    async lock(ctx) {
      const order = await orderBalance.lockForPayment(ctx, orderId)
      if (order.status !== 'open') return { payable: false, why: `the order is ${order.status}` }
      const pending = await ctx.db.read((q) => repo.pendingTotal(q, ctx.orgId, orderId))
      return {
        payable: true,
        outstanding: order.total - (order.capturedTotal - order.refundedTotal) - pending,
        tips: { tip: order.tip, totalBeforeTip: order.total - order.tip },
      }
    },
    captured: (ctx, amount) => orderBalance.recordCapture(ctx, orderId, amount),
    addTip: (ctx, delta) => orderBalance.addTip(ctx, orderId, delta),
  })

  /** The store's tip rules, when it takes tips (docs/commerce.md "Tips"). */
  async function tipsSettings(ctx: RequestContext) {
    const { tips } = await orgs.pricingSettings(ctx)
    assertTipsTaken(tips.enabled)
    return tips
  }

  /** Raising the target's tip by `delta` stays within the store's cap (settings.tips.max_percent). */
  async function checkTipRoom(
    ctx: RequestContext,
    tips: { tip: bigint; totalBeforeTip: bigint } | undefined,
    delta: bigint,
  ) {
    if (delta <= 0n) return
    if (!tips) throw invalid('tip', 'is taken on orders only', 'not_supported')
    const { max_percent } = await tipsSettings(ctx)
    assertWithinCap(tips.tip + delta, tips.totalBeforeTip, max_percent, 'tip')
  }

  async function enabledMethods(ctx: RequestContext) {
    const saved = await ctx.db.read((q) => repo.methodSettings(q, ctx.orgId))
    return saved ?? { methods: DEFAULT_METHODS.filter((m) => tenders.has(m)), version: 1 }
  }

  /** A tender's fields against the org's methods and currency: 422s naming the field; its amount in minor units. */
  async function checkTender(ctx: RequestContext, input: CreatePaymentInput) {
    const { methods } = await enabledMethods(ctx)
    if (!methods.includes(input.method))
      throw invalid('method', `is not enabled for this org (enabled: ${methods.join(', ')})`, 'not_enabled')
    const currency = await orgs.currencyOf(ctx)
    const amount = toMinor(input.amount, currency, 'amount')
    if (amount <= 0n) throw invalid('amount', 'must be greater than zero', 'out_of_range')
    const tender = tenderOf(input.method)
    for (const field of tender.required)
      if (!input[field])
        throw invalid(field, `is required for ${tender.method.replaceAll('_', ' ')} payments`, 'required')
    for (const field of TENDER_FIELDS)
      if (input[field] !== undefined && !tender.fields.includes(field))
        throw invalid(field, `applies to ${takers(field).replaceAll('_', ' ')} payments only`, 'invalid')
    const tip = input.tip === undefined ? 0n : toMinor(input.tip, currency, 'tip')
    if (tip > amount) throw invalid('tip', 'is part of the amount, so it cannot exceed it', 'out_of_range')
    if (tip > 0n) await tipsSettings(ctx)
    let cashTendered: bigint | null = null
    if (input.cash_tendered !== undefined) {
      cashTendered = toMinor(input.cash_tendered, currency, 'cash_tendered')
      if (cashTendered < amount) throw invalid('cash_tendered', 'must be at least the amount', 'out_of_range')
    }
    return { amount, currency, tip, cashTendered }
  }

  /** The target takes `amount`, `tip` of it a tip that raises its total by as much (within the store's cap). */
  async function checkPayable(ctx: RequestContext, target: PaymentTarget, amount: bigint, tip: bigint) {
    const state = await target.lock(ctx)
    if (!state.payable) throw PaymentErrors.NOT_PAYABLE(`no payment can be taken: ${state.why}`)
    await checkTipRoom(ctx, state.tips, tip)
    const outstanding = state.outstanding + tip
    if (amount > outstanding) {
      throw PaymentErrors.EXCEEDS_BALANCE(
        `the amount exceeds the balance still to pay (${outstanding < 0n ? 0n : outstanding} minor units)`,
      )
    }
  }

  async function record(
    ctx: RequestContext,
    row: repo.NewPayment,
    target: PaymentTarget,
    input: CreatePaymentInput,
  ): Promise<Payment> {
    return ctx.db.tx(async (q) => {
      await checkPayable(ctx, target, row.amount, row.tipAmount)
      if (row.tipAmount > 0n) await target.addTip!(ctx, row.tipAmount)
      // A processor's tender was taken by its processor already; the others take the money here, in the transaction.
      const taken = await tenderOf(row.method).take?.(
        ctx,
        { id: row.id, amount: row.amount, shiftId: row.shiftId },
        input,
      )
      const inserted = await repo.insertPayment(q, ctx.orgId, { ...row, giftCardId: taken?.giftCardId ?? null })
      const payment = toPayment(inserted)
      if (inserted.status === 'captured') {
        await target.captured(ctx, row.amount)
        await emitEvent(q, ctx.orgId, 'payment.captured', payment)
      }
      return payment
    })
  }

  /**
   * Gives an authorization back (a refund when it was captured, a void when not) and forgets it as a step of the
   * request's Idempotency-Key: a retry authorizes anew under a new payment id, so money given back is never
   * recorded as taken. If giving it back fails, the step stays and the retry records the authorization.
   */
  async function giveBack(ctx: RequestContext, held: CardHold): Promise<void> {
    const processor = tenderOf(held.method).processor!
    await (held.capture
      ? processor.refund({
          processorRef: held.processorRef,
          amount: held.amount,
          currency: held.currency,
          reference: held.id,
        })
      : processor.void({ processorRef: held.processorRef }))
    await forget(ctx, 'payment.id', 'payment.authorize')
  }

  const service = {
    /**
     * Authorizes a card before the caller's transaction opens (no processor call inside one); null for other
     * methods. A decline is a 409. The caller records it with `create(…, hold)` in its transaction, and gives it
     * back with `releaseHold` if that transaction fails. The id and the processor's answer are steps of an
     * Idempotency-Key, as for `create`: a retry after a crash or a lost answer resumes the same authorization.
     */
    async holdCard(ctx: RequestContext, input: CreatePaymentInput): Promise<CardHold | null> {
      const processor = tenders.get(input.method)?.processor
      if (!processor) return null
      const { amount, currency } = await checkTender(ctx, input)
      const id = await once(ctx, 'payment.id', async () => newId('pay'))
      const capture = input.capture === true
      const auth = await once(ctx, 'payment.authorize', () =>
        processor.authorize({ amount, currency, token: input.payment_method_token!, capture, reference: id }),
      )
      if (!auth.ok) throw PaymentErrors.CARD_DECLINED(`the card was declined: ${auth.message}`)
      return { id, method: input.method, processorRef: auth.processorRef, amount, currency, capture }
    },

    /** Gives back a hold whose transaction failed, so the customer is not charged (see giveBack). */
    releaseHold: (ctx: RequestContext, hold: CardHold): Promise<void> => giveBack(ctx, hold),

    /**
     * Takes a payment for `target`. Card payments are authorized with the processor first, outside any transaction
     * we open, then recorded in one; a decline is recorded as `failed` (payment.failed) and answered, not thrown.
     * Cash, gift card and external payments are captured at once.
     */
    async create(
      ctx: RequestContext,
      input: CreatePaymentInput,
      target: PaymentTarget,
      hold: CardHold | null = null,
    ): Promise<Payment> {
      const { amount, currency, tip, cashTendered } = await checkTender(ctx, input)
      // The id is a step: a retry of an Idempotency-Key resumes with it, and finds the payment if it was recorded.
      const id = hold?.id ?? (await once(ctx, 'payment.id', async () => newId('pay')))
      const recorded = await ctx.db.read((q) => repo.paymentById(q, ctx.orgId, id))
      if (recorded) return toPayment(recorded)
      // Fail fast before calling the processor; the check is repeated under the lock when recording.
      await ctx.db.tx(() => checkPayable(ctx, target, amount, tip))

      const base: repo.NewPayment = {
        id,
        orderId: target.orderId,
        laybyId: target.laybyId,
        method: input.method,
        amount,
        currency,
        status: 'captured',
        processor: null,
        processorRef: null,
        giftCardId: null,
        shiftId: input.shift_id ?? null,
        failureCode: null,
        failureMessage: null,
        tipAmount: tip,
        cashTendered,
      }
      const processor = tenderOf(input.method).processor
      if (!processor) return record(ctx, base, target, input)

      const capture = target.laybyId !== null || input.capture === true
      // Recorded before anything else can fail: a retry never authorizes twice (the processor also dedupes on
      // `reference`, for a crash between its answer and this record).
      const auth: ProcessorResult = hold
        ? { ok: true, processorRef: hold.processorRef }
        : await once(ctx, 'payment.authorize', () =>
            processor.authorize({ amount, currency, token: input.payment_method_token!, capture, reference: id }),
          )
      if (!auth.ok) {
        return ctx.db.tx(async (q) => {
          const row = await repo.insertPayment(q, ctx.orgId, {
            ...base,
            // A declined card adds no tip to the order.
            tipAmount: 0n,
            status: 'failed',
            processor: processor.name,
            failureCode: auth.code,
            failureMessage: auth.message,
          })
          const payment = toPayment(row)
          await emitEvent(q, ctx.orgId, 'payment.failed', payment)
          return payment
        })
      }
      try {
        return await record(
          ctx,
          {
            ...base,
            status: capture ? 'captured' : 'requires_capture',
            processor: processor.name,
            processorRef: auth.processorRef,
          },
          target,
          input,
        )
      } catch (error) {
        // The balance moved while the card was authorized, or recording failed: the customer is not charged. A
        // hold taken by the caller is the caller's to release, once its own transaction has failed.
        if (hold) throw error
        await giveBack(ctx, { id, method: input.method, processorRef: auth.processorRef, amount, currency, capture })
        throw error
      }
    },

    createForOrder(ctx: RequestContext, input: CreatePaymentBody): Promise<Payment> {
      return service.create(ctx, input, orderTarget(input.order_id))
    },

    /**
     * The tenders of a till's offline sale (docs/sync.md), recorded as taken when it was sold: cash, external, and
     * what a gift card could cover (redeemed by the caller). Its order already counts them. Cash goes to the shift it was taken in, open or closed since (a late sale); a shift
     * that is not the org's keeps none and says so (false). Joins the caller's transaction.
     */
    async recordOffline(
      ctx: RequestContext,
      orderId: string,
      paid: readonly {
        method: string
        /** A processor's tender (a card): the adapter's token for it, authorized later (authorizeOffline). */
        token?: string
        /** The payment's id, when the caller referenced it already (a gift card redeemed for it). */
        id?: string
        amount: bigint
        tip: bigint
        cashTendered: bigint | null
        giftCardId?: string | null
      }[],
      taken: { at: Date; shiftId: string | null },
    ): Promise<{ payments: Payment[]; shiftKnown: boolean }> {
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.tx(async (q) => {
        const payments: Payment[] = []
        let shiftKnown = true
        for (const t of paid) {
          const id = t.id ?? newId('pay')
          const tender = tenderOf(t.method)
          const kept =
            tender.takeOffline && taken.shiftId
              ? await tender.takeOffline(ctx, { id, amount: t.amount }, taken.shiftId)
              : false
          if (tender.takeOffline && taken.shiftId && !kept) shiftKnown = false
          const processor = tender.processor
          const offline = processor !== undefined
          const row = await repo.insertPayment(q, ctx.orgId, {
            id,
            orderId,
            laybyId: null,
            method: t.method,
            amount: t.amount,
            currency,
            // A card taken offline waits for the worker's authorization; its order does not count it yet.
            status: offline ? 'pending' : 'captured',
            offlineTokenSealed: offline
              ? deps.secrets.seal(t.token ?? '', rowBinding('payments', ctx.orgId, id))
              : null,
            takenAt: taken.at,
            processor: processor?.name ?? null,
            processorRef: null,
            giftCardId: t.giftCardId ?? null,
            shiftId: kept ? taken.shiftId : null,
            failureCode: null,
            failureMessage: null,
            tipAmount: t.tip,
            cashTendered: t.cashTendered,
            capturedAt: taken.at,
          })
          const payment = toPayment(row)
          if (!offline) await emitEvent(q, ctx.orgId, 'payment.captured', payment)
          payments.push(payment)
        }
        return { payments, shiftKnown }
      })
    },

    /**
     * Authorizes and captures a card a till took offline (the worker, after sync): with the processor, outside any
     * transaction, under the payment's id as its idempotency key, then recorded with its order's balance. A card
     * taken longer ago than `maxAgeMs` is declined without asking. Answers the decline, if any, for its conflict.
     */
    async authorizeOffline(
      ctx: RequestContext,
      id: string,
      maxAgeMs: number,
    ): Promise<{ orderId: string | null; declined: string | null } | null> {
      const pending = await ctx.db.read((q) => repo.pendingCard(q, ctx.orgId, id))
      if (!pending) return null
      const amount = BigInt(pending.amount)
      const tooOld = pending.taken_at.getTime() < Date.now() - maxAgeMs
      const auth: ProcessorResult = tooOld
        ? { ok: false, code: 'offline_too_old', message: `taken offline more than ${maxAgeMs / 3_600_000} hours ago` }
        : await processorOf(pending).authorize({
            amount,
            currency: pending.currency,
            token: deps.secrets.open(pending.offline_token_sealed, rowBinding('payments', ctx.orgId, id)),
            capture: true,
            reference: id,
          })
      return ctx.db.tx(async (q) => {
        if (pending.order_id) await orderBalance.lockForPayment(ctx, pending.order_id)
        const settled = await repo.settlePending(
          q,
          ctx.orgId,
          id,
          auth.ok
            ? { status: 'captured', processorRef: auth.processorRef }
            : { status: 'failed', code: auth.code, message: auth.message },
        )
        if (!settled) return null
        const payment = toPayment(settled)
        if (!auth.ok) {
          await emitEvent(q, ctx.orgId, 'payment.failed', payment)
          return { orderId: settled.order_id, declined: auth.message }
        }
        if (settled.order_id) await orderBalance.recordCapture(ctx, settled.order_id, amount)
        await emitEvent(q, ctx.orgId, 'payment.captured', payment)
        return { orderId: settled.order_id, declined: null }
      })
    },

    /** Every payment of an order, in the order they were taken. */
    listForOrder: (ctx: RequestContext, orderId: string): Promise<Payment[]> =>
      ctx.db.read(async (q) => (await repo.paymentsOf(q, ctx.orgId, { orderId })).map(toPayment)),

    async get(ctx: RequestContext, id: string): Promise<Payment> {
      const row = await ctx.db.read((q) => repo.paymentById(q, ctx.orgId, id))
      if (!row) throw notFound('payment')
      return toPayment(row)
    },

    /**
     * Captures an authorized payment: the processor first (its answer recorded against an Idempotency-Key before
     * anything else can fail, so a retry resumes rather than capturing again), then the record, the order's
     * balance and payment.captured.
     */
    async capture(ctx: RequestContext, id: string): Promise<Payment> {
      const row = await ctx.db.read((q) => repo.paymentById(q, ctx.orgId, id))
      if (!row) throw notFound('payment')
      // The amount sent is recorded with the answer: a retry records what the processor took, not what the row
      // says by then (a tip adjusted meanwhile).
      const result: ProcessorResult & { amount?: string } = await once(ctx, 'payment.capture', async () => {
        if (row.status !== 'requires_capture')
          throw PaymentErrors.NOT_CAPTURABLE(`a payment that is ${row.status} cannot be captured`)
        const answer = await processorOf(row).capture({
          processorRef: row.processor_ref!,
          amount: BigInt(row.amount),
          currency: row.currency,
        })
        return { ...answer, amount: row.amount }
      })
      if (!result.ok)
        throw PaymentErrors.PROCESSOR_REFUSED(`the payment processor refused the capture: ${result.message}`)
      // A retry whose first attempt committed the capture finds it done: that is this request's own capture.
      if (row.status === 'captured') return toPayment(row)
      return ctx.db.tx(async (q) => {
        if (row.order_id) await orderBalance.lockForPayment(ctx, row.order_id)
        // Recorded only at the amount the processor took: a tip adjusted meanwhile is a conflict, not a wrong record.
        const taken = BigInt(result.amount ?? row.amount)
        const moved = await repo.transition(q, ctx.orgId, id, 'requires_capture', 'captured', taken)
        if (!moved) throw PaymentErrors.CHANGED_CONCURRENTLY('the payment was captured, voided or adjusted meanwhile')
        if (moved.order_id) await orderBalance.recordCapture(ctx, moved.order_id, BigInt(moved.amount))
        const payment = toPayment(moved)
        await emitEvent(q, ctx.orgId, 'payment.captured', payment)
        return payment
      })
    },

    /**
     * Voids an uncaptured payment; a captured one is a 409 (refund it through its order instead). Resumable like
     * a capture: the processor's answer is recorded against an Idempotency-Key first.
     */
    async void(ctx: RequestContext, id: string): Promise<Payment> {
      const current = await ctx.db.read((q) => repo.paymentById(q, ctx.orgId, id))
      if (!current) throw notFound('payment')
      const result = await once(ctx, 'payment.void', async () => {
        if (current.status !== 'requires_capture')
          throw PaymentErrors.NOT_VOIDABLE(`a payment that is ${current.status} cannot be voided`)
        return processorOf(current).void({ processorRef: current.processor_ref! })
      })
      if (!result.ok) throw PaymentErrors.PROCESSOR_REFUSED(`the payment processor refused the void: ${result.message}`)
      if (current.status === 'voided') return toPayment(current)
      return ctx.db.tx(async (q) => {
        if (current.order_id) await orderBalance.lockForPayment(ctx, current.order_id)
        const moved = await repo.transition(q, ctx.orgId, id, 'requires_capture', 'voided')
        if (!moved) throw PaymentErrors.CHANGED_CONCURRENTLY('the payment was captured or voided meanwhile')
        // The tip it carried leaves the order with it.
        const tip = BigInt(moved.tip_amount)
        if (tip > 0n && moved.order_id) await orderBalance.addTip(ctx, moved.order_id, -tip)
        return toPayment(moved)
      })
    },

    /**
     * Tip adjustment (Square's UpdatePayment, Stripe's incremental authorization): a card payment not yet captured
     * takes a new tip, its amount and its order's tip and total moving with it, within the store's cap. The
     * processor first, outside any transaction and resumable like a capture; then the record, guarded by the
     * payment's version so a capture or another adjustment meanwhile is a conflict. Refused once captured.
     */
    async adjustTip(ctx: RequestContext, id: string, tipMajor: number): Promise<Payment> {
      const row = await ctx.db.read((q) => repo.paymentById(q, ctx.orgId, id))
      if (!row) throw notFound('payment')
      if (row.status !== 'requires_capture' || !row.order_id)
        throw PaymentErrors.TIP_NOT_ADJUSTABLE(
          `a tip is adjusted on an authorized card payment of an order before capture; this one is ${row.status}`,
        )
      await tipsSettings(ctx)
      const tip = toMinor(tipMajor, row.currency, 'tip')
      const delta = tip - BigInt(row.tip_amount)
      if (delta === 0n) return toPayment(row)
      const target = orderTarget(row.order_id)
      const checkRoom = async () => {
        const state = await target.lock(ctx)
        if (!state.payable) throw PaymentErrors.NOT_PAYABLE(`no tip can be added: ${state.why}`)
        await checkTipRoom(ctx, state.tips, delta)
      }
      await ctx.db.tx(checkRoom)
      const amount = BigInt(row.amount) + delta
      const result = await once(ctx, 'payment.tip', () =>
        processorOf(row).adjust({
          processorRef: row.processor_ref!,
          amount,
          currency: row.currency,
          // The amount asked for is part of the key: two adjustments to different tips are two calls.
          reference: `${row.id}:${amount}`,
        }),
      )
      if (!result.ok)
        throw PaymentErrors.PROCESSOR_REFUSED(`the payment processor refused the tip adjustment: ${result.message}`)
      return ctx.db.tx(async (q) => {
        await checkRoom()
        const moved = await repo.adjustTip(q, ctx.orgId, id, row.version, tip)
        if (!moved) throw PaymentErrors.CHANGED_CONCURRENTLY('the payment was captured, voided or adjusted meanwhile')
        await target.addTip!(ctx, delta)
        return toPayment(moved)
      })
    },

    async methods(ctx: RequestContext) {
      const { methods, version } = await enabledMethods(ctx)
      return { methods, available: [...tenders.keys()], processor: processorName, version }
    },

    async setMethods(ctx: RequestContext, methods: readonly string[], expectedVersion: number | undefined) {
      methods.forEach((m, i) => {
        if (!tenders.has(m)) throw invalid(`methods.${i}`, `is not a way to pay of this installation`, 'invalid_enum')
      })
      const unique = [...new Set(methods)]
      const saved = await ctx.db.tx(async (q) => {
        const current = (await repo.methodSettings(q, ctx.orgId))?.version ?? 1
        if (expectedVersion !== undefined && expectedVersion !== current) throw staleVersion(current)
        const row = await repo.saveMethodSettings(q, ctx.orgId, unique, expectedVersion)
        if (!row) throw staleVersion((await repo.methodSettings(q, ctx.orgId))!.version)
        return row
      })
      return {
        methods: saved.methods,
        available: [...tenders.keys()],
        processor: processorName,
        version: saved.version,
      }
    },

    /** For lay-bys: their payments and moving them to the order a completed lay-by becomes. */
    listForLayby: (ctx: RequestContext, laybyId: string) =>
      ctx.db.read(async (q) => (await repo.paymentsOf(q, ctx.orgId, { laybyId })).map(toPayment)),
    attachLaybyPayments: (ctx: RequestContext, laybyId: string, orderId: string) =>
      ctx.db.tx((q) => repo.attachLaybyPayments(q, ctx.orgId, laybyId, orderId)),

    /**
     * Cancelling a lay-by, step 1 (joins the caller's transaction): reserves a full refund of every captured
     * payment, or finds the reservation an interrupted cancellation left.
     */
    async reserveLaybyRefunds(ctx: RequestContext, laybyId: string): Promise<RefundPart[]> {
      return ctx.db.tx(async (q) => {
        const reserved = await repo.laybyRefundParts(q, ctx.orgId, laybyId)
        if (reserved.length) return reserved.map((r) => ({ paymentId: r.payment_id, amount: BigInt(r.amount) }))
        const parts: RefundPart[] = []
        for (const p of await repo.paymentsOf(q, ctx.orgId, { laybyId })) {
          const left = BigInt(p.amount) - BigInt(p.refunded_amount)
          if (!['captured', 'partially_refunded'].includes(p.status) || left <= 0n) continue
          await repo.addRefunded(q, ctx.orgId, p.id, left)
          await repo.insertPaymentRefund(q, ctx.orgId, {
            id: newId('prf'),
            paymentId: p.id,
            refundId: null,
            amount: left,
          })
          parts.push({ paymentId: p.id, amount: left })
        }
        return parts
      })
    },

    /**
     * Step 2, outside any transaction: the card refunds at the processor, with the lay-by's id as their reference
     * (processors dedupe on it, so a resumed cancellation does not refund twice).
     */
    executeLaybyRefunds: (ctx: RequestContext, laybyId: string, parts: RefundPart[]) =>
      port.executeRefund(ctx, laybyId, parts),

    /** Step 2 was refused: the reservation goes, and the lay-by stays as it was. */
    async releaseLaybyRefunds(ctx: RequestContext, laybyId: string, parts: RefundPart[]): Promise<void> {
      await ctx.db.tx(async (q) => {
        for (const part of parts) await repo.addRefunded(q, ctx.orgId, part.paymentId, -part.amount)
        await repo.deleteLaybyRefundParts(q, ctx.orgId, laybyId)
      })
    },

    /** Step 3 (joins the caller's transaction): payment statuses, gift card credits and cash movements. */
    settleLaybyRefunds: (ctx: RequestContext, laybyId: string, parts: RefundPart[], shiftId: string | null) =>
      settleParts(ctx, parts, shiftId, { type: 'layby', id: laybyId }),
  }

  async function settleParts(
    ctx: RequestContext,
    parts: RefundPart[],
    shiftId: string | null,
    reference: { type: string; id: string },
  ) {
    await ctx.db.tx(async (q) => {
      for (const part of parts) {
        await repo.settleRefundStatus(q, ctx.orgId, part.paymentId)
        const p = (await repo.paymentById(q, ctx.orgId, part.paymentId))!
        await tenderOf(p.method).giveBack?.(ctx, p, part.amount, shiftId, reference)
      }
    })
  }

  /** The order side of refunds (see OrderPaymentsPort). */
  const port: OrderPaymentsPort = {
    listForOrder: (ctx, orderId) => service.listForOrder(ctx, orderId),

    async reserveRefund(ctx, orderId, refundId, amount) {
      return ctx.db.tx(async (q) => {
        const payments = await repo.refundablePayments(q, ctx.orgId, orderId)
        const parts = allocateRefund(
          amount,
          payments.map((p) => ({ id: p.id, left: BigInt(p.amount) - BigInt(p.refunded_amount) })),
        ).map((p) => ({ paymentId: p.id, amount: p.amount }))
        for (const part of parts) {
          await repo.addRefunded(q, ctx.orgId, part.paymentId, part.amount)
          await repo.insertPaymentRefund(q, ctx.orgId, {
            id: newId('prf'),
            paymentId: part.paymentId,
            refundId,
            amount: part.amount,
          })
        }
        return parts
      })
    },

    async executeRefund(ctx, refundId, parts) {
      const refs: Record<string, string | null> = {}
      for (const part of parts) {
        const p = (await ctx.db.read((q) => repo.paymentById(q, ctx.orgId, part.paymentId)))!
        const processor = tenderOf(p.method).processor
        if (!processor) {
          refs[p.id] = null
          continue
        }
        // One refund can take from several processor payments: each part is its own idempotent call.
        const result = await processor.refund({
          processorRef: p.processor_ref!,
          amount: part.amount,
          currency: p.currency,
          reference: `${refundId}:${p.id}`,
        })
        if (!result.ok) return { ok: false, reason: result.message }
        refs[p.id] = result.processorRef
      }
      return { ok: true, refs }
    },

    async settleRefund(ctx, refundId, parts, shiftId, refs) {
      await ctx.db.tx(async (q) => {
        for (const part of parts)
          await repo.setPaymentRefundRef(q, ctx.orgId, refundId, part.paymentId, refs[part.paymentId] ?? null)
      })
      await settleParts(ctx, parts, shiftId, { type: 'refund', id: refundId })
    },

    async partsOfRefund(ctx, refundId) {
      const rows = await ctx.db.read((q) => repo.partsOfRefund(q, ctx.orgId, refundId))
      return rows.map((r) => ({ paymentId: r.payment_id, amount: BigInt(r.amount) }))
    },

    async releaseRefund(ctx, refundId, parts) {
      await ctx.db.tx(async (q) => {
        for (const part of parts) await repo.addRefunded(q, ctx.orgId, part.paymentId, -part.amount)
        await repo.deletePaymentRefunds(q, ctx.orgId, refundId)
      })
    },

    async voidOpenIntents(ctx, orderId) {
      const open = await ctx.db.read(async (q) =>
        (await repo.paymentsOf(q, ctx.orgId, { orderId })).filter((p) => p.status === 'requires_capture'),
      )
      for (const p of open) await service.void(ctx, p.id)
    },
  }

  return { ...service, orderPort: port }
}

export type PaymentsService = ReturnType<typeof createPaymentsService>
