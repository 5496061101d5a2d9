import type { RequestContext } from '../../platform/http/context.ts'
import type { Payment } from './payments.schemas.ts'

/** One payment's share of a refund. */
export interface RefundPart {
  paymentId: string
  amount: bigint
}

/**
 * What the processor answered a refund: each payment's processor reference (null for tenders with nothing to call),
 * or the refusal. JSON, so that a flow run records it as a step.
 */
type RefundOutcome = { ok: true; refs: Record<string, string | null> } | { ok: false; reason: string }

/**
 * The payments side of an order (the flows use it): reading what was paid, and refunding in three steps so the
 * processor is called outside any transaction: reserve (in the order's transaction), execute (outside), settle or
 * release.
 */
export interface OrderPaymentsPort {
  listForOrder(ctx: RequestContext, orderId: string): Promise<Payment[]>
  reserveRefund(ctx: RequestContext, orderId: string, refundId: string, amount: bigint): Promise<RefundPart[]>
  executeRefund(ctx: RequestContext, refundId: string, parts: RefundPart[]): Promise<RefundOutcome>
  settleRefund(
    ctx: RequestContext,
    refundId: string,
    parts: RefundPart[],
    shiftId: string | null,
    refs: Record<string, string | null>,
  ): Promise<void>
  releaseRefund(ctx: RequestContext, refundId: string, parts: RefundPart[]): Promise<void>
  /** What reserveRefund reserved for a refund, for finishing one its request left pending. */
  partsOfRefund(ctx: RequestContext, refundId: string): Promise<RefundPart[]>
  /** Voids the order's uncaptured intents (before the order itself is voided). */
  voidOpenIntents(ctx: RequestContext, orderId: string): Promise<void>
}
