import type { CampaignsService } from '../modules/campaigns/index.ts'
import type { InventoryService } from '../modules/inventory/index.ts'
import {
  type CancelLaybyBody,
  type CompleteLaybyBody,
  type CreateLaybyBody,
  type Layby,
  LaybyErrors,
  type LaybyRecord,
  type LaybysService,
  type TenderBody,
} from '../modules/laybys/index.ts'
import {
  type ApprovalsPort,
  type OrdersService,
  ownDiscountPercent,
  refuseUsedUpVouchers,
  stockChangesOf,
} from '../modules/orders/index.ts'
import type { Payment, PaymentsService } from '../modules/payments/index.ts'
import { beginRun, endRun, type FlowRun, runStep } from '../platform/flows/flow-runs.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { CompleteSale } from './complete-sale.ts'
import type { PriceSale } from './price-sale.ts'

/** A lay-by cancellation's run, keyed by the lay-by's id. */
export const CANCELLATION_FLOW = 'layby-cancellation'
/** What a cancellation was asked with: the run keeps it for the claimer that finishes one a crash interrupted. */
export type CancellationRunInput = { reason: string | null; shiftId: string | null }
type Asked = CancellationRunInput

/**
 * Lay-bys (docs/commerce.md "Lay-bys"): opening (priced as a sale, its campaign uses claimed, its stock put aside,
 * its deposit taken, in one transaction), paying toward the balance, collecting (the completed order it becomes),
 * and cancelling in steps around the processor's refunds. No processor call runs inside a transaction: a card
 * deposit is authorized before the lay-by's transaction and given back if it fails (so a declined deposit leaves no
 * lay-by behind).
 */
export function createLaybyFlows(deps: {
  laybys: LaybysService
  priceSale: PriceSale
  campaigns: Pick<CampaignsService, 'claim' | 'release'>
  payments: Pick<
    PaymentsService,
    | 'create'
    | 'holdCard'
    | 'releaseHold'
    | 'listForLayby'
    | 'attachLaybyPayments'
    | 'reserveLaybyRefunds'
    | 'executeLaybyRefunds'
    | 'releaseLaybyRefunds'
    | 'settleLaybyRefunds'
  >
  orders: Pick<OrdersService, 'createFromLayby'>
  inventory: Pick<InventoryService, 'applyChanges'>
  completeSale: CompleteSale
  approvals: ApprovalsPort
}) {
  const { laybys, payments } = deps

  /** What the lay-by puts aside and gives back: its counted lines, bundles by the components kept with the price. */
  const moveStock = (ctx: RequestContext, row: LaybyRecord, sign: 1 | -1, reason: 'layby_reserve' | 'layby_release') =>
    deps.inventory.applyChanges(
      ctx,
      stockChangesOf(laybys.pricedOf(row).quoted, {
        locationId: row.location_id,
        sign,
        reason,
        reference: { type: 'layby', id: row.id },
      }),
    )

  /** Opening, in one transaction: priced, recorded, its campaign uses claimed, its stock aside, its deposit taken. */
  function open(
    ctx: RequestContext,
    input: CreateLaybyBody,
    hold: Awaited<ReturnType<typeof payments.holdCard>>,
    approvedBy: string | null,
  ): Promise<Layby> {
    const deposit = { ...input.deposit, capture: true }
    return ctx.db.tx(async () => {
      await laybys.checkReferences(ctx, input)
      const priced = await deps.priceSale(ctx, input)
      refuseUsedUpVouchers(priced)
      if (priced.discounts.length > 0)
        await deps.approvals.assertApproved(ctx, { kind: 'discount', percent: ownDiscountPercent(priced) }, approvedBy)
      const row = await laybys.record(ctx, input, priced)
      // A lay-by's campaign uses count when it opens (against the lay-by) and come back if it is cancelled.
      await deps.campaigns.claim(
        ctx,
        {
          id: row.id,
          locationId: input.location_id,
          customerId: input.customer_id,
          currency: priced.currency,
          total: priced.totals.total,
        },
        priced.campaigns.applications,
      )
      await moveStock(ctx, row, -1, 'layby_reserve')
      const payment = await payments.create(ctx, deposit, laybys.paymentTarget(row.id, false), hold)
      if (payment.status === 'failed')
        throw LaybyErrors.CARD_DECLINED(`the deposit was declined: ${payment.failure_message}`)
      return laybys.announceOpened(ctx, row.id, payment)
    })
  }

  /**
   * Three steps, so that the processor's refunds run outside any transaction: the lay-by turns `cancelling` with
   * its refunds reserved; the card refunds go to the processor (the lay-by's id as their reference, so a resumed
   * cancellation refunds nothing twice); then the refunds settle, the campaign uses and the stock come back and the
   * lay-by is `cancelled`. A refusal in the middle puts it back as it was (409). The lay-by is locked and must still
   * be `cancelling` for either, so a request and the worker finishing the same cancellation settle or release it once.
   * From the first step to the last the cancellation is a flow run (platform/flows/flow-runs.ts), the processor's
   * answer its recorded step.
   */
  async function cancelInSteps(ctx: RequestContext, id: string, asked: Asked, from?: ['cancelling']) {
    const { run, parts } = await ctx.db.tx(async () => {
      await laybys.startCancelling(ctx, id, from)
      return {
        run: await beginRun(ctx, CANCELLATION_FLOW, id, asked),
        parts: await payments.reserveLaybyRefunds(ctx, id),
      }
    })
    const outcome = await runStep(ctx, run, 'processor', () => payments.executeLaybyRefunds(ctx, id, parts))
    if (!outcome.ok) {
      await ctx.db.tx(async () => {
        // Open already: the other one finishing this cancellation was refused too, and has released it; cancelled: the
        // other one settled it, and this refusal changes nothing.
        const locked = await laybys.lockCancelling(ctx, id)
        const ended = await endRun(ctx, run)
        if (locked.done) throw LaybyErrors.NOT_OPEN('a lay-by that is cancelled cannot change')
        const { row } = locked
        // Not this run's to release: another finisher released it, and the lay-by may be cancelling again since.
        if (!row || !ended) return
        await payments.releaseLaybyRefunds(ctx, id, parts)
        await laybys.reopen(ctx, row)
      })
      throw LaybyErrors.PROCESSOR_REFUSED(`the payment processor refused the refund: ${outcome.reason}`)
    }
    return ctx.db.tx(async () => {
      const locked = await laybys.lockCancelling(ctx, id)
      const ended = await endRun(ctx, run)
      // Cancelled already: the other one finishing this cancellation settled it; this one answers it as done.
      if (locked.done) return locked.done
      const { row } = locked
      if (!row) throw LaybyErrors.NOT_OPEN(`a lay-by that is ${locked.status} cannot change`)
      // Cancelling again, under a run begun after this one ended (refused, then asked again): not this one's to settle.
      if (!ended) throw LaybyErrors.NOT_OPEN('another cancellation of this lay-by is under way')
      await payments.settleLaybyRefunds(ctx, id, parts, run.input.shiftId)
      await deps.campaigns.release(ctx, id)
      await moveStock(ctx, row, 1, 'layby_release')
      return laybys.finishCancelling(
        ctx,
        row,
        parts.reduce((sum, part) => sum + part.amount, 0n),
        run.input.reason,
      )
    })
  }

  const detail = async (ctx: RequestContext, id: string): Promise<Layby> =>
    laybys.get(ctx, id, await payments.listForLayby(ctx, id))

  return {
    /**
     * A card deposit is authorized before the lay-by's transaction (no processor call inside one), recorded in it,
     * and given back if the lay-by cannot open (a retry then authorizes anew).
     */
    async create(ctx: RequestContext, input: CreateLaybyBody): Promise<Layby> {
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      const hold = await payments.holdCard(ctx, { ...input.deposit, capture: true })
      try {
        return await open(ctx, input, hold, approvedBy)
      } catch (error) {
        if (hold) await payments.releaseHold(ctx, hold)
        throw error
      }
    },

    /** The lay-by with its payments. */
    get: detail,

    /** A payment against the balance (layby.payment_received); a declined card is answered as a failed payment. */
    async pay(ctx: RequestContext, id: string, tender: TenderBody): Promise<{ payment: Payment; layby: Layby }> {
      const payment = await payments.create(ctx, { ...tender, capture: true }, laybys.paymentTarget(id, true))
      return { payment, layby: await detail(ctx, id) }
    },

    /**
     * Collecting a lay-by paid in full, in one transaction: the completed order it becomes (its stock was taken when
     * the lay-by opened), the sale's completion (points), its payments moved onto the order, the lay-by completed.
     */
    async complete(ctx: RequestContext, id: string, input: CompleteLaybyBody): Promise<Layby> {
      return ctx.db.tx(async () => {
        const started = await laybys.startCompletion(ctx, id, input)
        const order = await deps.completeSale(ctx, await deps.orders.createFromLayby(ctx, started.order))
        await payments.attachLaybyPayments(ctx, id, order.id)
        return laybys.finishCompletion(ctx, started, order.id)
      })
    },

    /** Cancels an open lay-by, or resumes a cancellation a crash interrupted. */
    async cancel(ctx: RequestContext, id: string, input: CancelLaybyBody): Promise<Layby> {
      // A cancellation refunds every payment: a refund staff may not make alone.
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      await deps.approvals.assertApproved(ctx, { kind: 'refund' }, approvedBy)
      return cancelInSteps(ctx, id, { reason: input.reason ?? null, shiftId: input.shift_id ?? null })
    },

    /**
     * Finishes a cancellation its request left `cancelling` (the worker's claimer, once no request can still be
     * running it), as it was asked; a run whose lay-by is no longer `cancelling` was finished, and ends.
     */
    async resumeCancellation(ctx: RequestContext, run: FlowRun<Asked>): Promise<void> {
      if (!(await laybys.lockCancelling(ctx, run.key)).row) {
        await endRun(ctx, run)
        return
      }
      await cancelInSteps(ctx, run.key, run.input, ['cancelling'])
    },
  }
}
