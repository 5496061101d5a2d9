import type { InventoryService } from '../modules/inventory/index.ts'
import type { LoyaltyService } from '../modules/loyalty/index.ts'
import type { ApprovalsPort, OrderRefunds, RefundBody } from '../modules/orders/index.ts'
import { type Order, OrderErrors } from '../modules/orders/index.ts'
import type { PaymentsService, RefundPart } from '../modules/payments/index.ts'
import { beginRun, endRun, type FlowRun, runStep } from '../platform/flows/flow-runs.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { OrderDetail } from './order-detail.ts'

type RefundPayments = Pick<
  PaymentsService['orderPort'],
  'reserveRefund' | 'executeRefund' | 'settleRefund' | 'releaseRefund' | 'partsOfRefund' | 'listForOrder'
>

/** A refund's run, keyed by the refund's id. */
export const REFUND_FLOW = 'refund'
/** What the settlement needs that the refund's own row does not keep. */
export interface RefundRunInput {
  shiftId: string | null
}

/**
 * A refund by line or by amount, never more than was captured and not yet refunded, in three steps so the
 * processor is called outside any transaction (docs/commerce.md "Refunds"):
 * 1. reserve: the order reserves the amount and its lines, each payment its part, in one transaction;
 * 2. the processor refunds the card parts (cash and gift cards have nothing to call);
 * 3. settle: the payments, the stock put back when asked, the loyalty points the refund takes back, and the order's
 *    move to (partially) refunded with order.refunded, in one transaction; or, on a refusal, the release (409).
 * The refund is a flow run from 1 to 3 (platform/flows/flow-runs.ts): the processor's answer is recorded as its step,
 * and a refund whose request ended between 1 and 3 is finished by the worker from the run (resume).
 */
export function createRefundFlow(deps: {
  orderRefunds: OrderRefunds
  /** The order as its answer shows it. */
  orderDetail: OrderDetail
  approvals: ApprovalsPort
  payments: RefundPayments
  inventory: Pick<InventoryService, 'applyChanges'>
  loyalty: Pick<LoyaltyService, 'reverseForRefund'>
}) {
  async function finish(
    ctx: RequestContext,
    run: FlowRun<RefundRunInput>,
    reserved: Awaited<ReturnType<OrderRefunds['reserve']>> & { parts: RefundPart[] },
    terms: { restock: boolean; reason: string; approvedBy: string | null; shiftId: string | null },
  ): Promise<void> {
    const { refundId, orderId, parts } = reserved
    const outcome = await runStep(ctx, run, 'processor', () => deps.payments.executeRefund(ctx, refundId, parts))
    if (!outcome.ok) {
      await ctx.db.tx(async () => {
        const pending = await deps.orderRefunds.lockPending(ctx, orderId, refundId)
        await endRun(ctx, run)
        if (!pending) return
        await deps.payments.releaseRefund(ctx, refundId, parts)
        await deps.orderRefunds.release(ctx, reserved, outcome.reason)
      })
      throw OrderErrors.PROCESSOR_REFUSED(`the payment processor refused the refund: ${outcome.reason}`)
    }
    await ctx.db.tx(async () => {
      const pending = await deps.orderRefunds.lockPending(ctx, orderId, refundId)
      // Locked after the order, as every refund locks: a request and the claimer finishing it end it once.
      await endRun(ctx, run)
      if (!pending) return
      await deps.payments.settleRefund(ctx, refundId, parts, terms.shiftId, outcome.refs)
      await deps.orderRefunds.succeed(ctx, refundId)
      if (terms.restock && reserved.restockChanges.length)
        await deps.inventory.applyChanges(ctx, reserved.restockChanges)
      await deps.loyalty.reverseForRefund(ctx, pending.loyaltyShare)
      await deps.orderRefunds.settle(ctx, reserved, pending, terms, await deps.payments.listForOrder(ctx, orderId))
    })
  }

  return {
    async refund(ctx: RequestContext, orderId: string, request: RefundBody): Promise<Order> {
      // Stripe's and Square's defaults: nothing goes back on the shelf unless asked, and no reason is needed.
      const input = {
        ...request,
        restock: request.restock ?? false,
        reason: request.reason ?? '',
        includeTip: request.include_tip ?? false,
      }
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      await deps.approvals.assertApproved(ctx, { kind: 'refund' }, approvedBy)
      const shiftId = input.shift_id ?? null
      const { run, ...reserved } = await ctx.db.tx(async () => {
        const onOrder = await deps.orderRefunds.reserve(ctx, orderId, input, approvedBy)
        return {
          ...onOrder,
          parts: await deps.payments.reserveRefund(ctx, orderId, onOrder.refundId, onOrder.amount),
          run: await beginRun<RefundRunInput>(ctx, REFUND_FLOW, onOrder.refundId, { shiftId }),
        }
      })
      await finish(ctx, run, reserved, { restock: input.restock, reason: input.reason, approvedBy, shiftId })
      return deps.orderDetail(ctx, orderId)
    },

    /**
     * Finishes a refund its request left pending (the worker's claimer, once no request can still be running it):
     * the processor's recorded answer, or the processor again under the same references, which it answers as the
     * first time; then the settlement, in the till shift the request named.
     */
    async resume(ctx: RequestContext, run: FlowRun<RefundRunInput>): Promise<void> {
      const pending = await deps.orderRefunds.pending(ctx, run.key)
      if (!pending) {
        await endRun(ctx, run)
        return
      }
      const parts = await deps.payments.partsOfRefund(ctx, run.key)
      const { restock, reason, approvedBy } = pending
      await finish(ctx, run, { ...pending, parts }, { restock, reason, approvedBy, shiftId: run.input.shiftId })
    },
  }
}
