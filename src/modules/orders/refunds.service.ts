import { newId } from '../../platform/crypto/ids.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { toMinor } from '../../platform/money/money.ts'
import { recordAudit } from '../audit/index.ts'
import { moveStatus } from './order-status.ts'
import { OrderErrors } from './orders.errors.ts'
import * as repo from './orders.repo.ts'
import type { OrderPayment, OrderStatus, RefundBody } from './orders.schemas.ts'
import type { LineRow, OrderRow } from './orders.tables.ts'
import { toOrder } from './orders.views.ts'
import type { InventoryPort } from './ports.ts'
import { lineRefundAmount } from './totals.ts'

interface PlannedLine {
  line: LineRow
  quantity: number
  amount: bigint
}

/** What a refund's first step reserved on the order: the amount, its tip, its lines and what goes back on the shelf. */
export interface RefundReservation {
  refundId: string
  orderId: string
  amount: bigint
  /** What of the amount is the tip. */
  tip: bigint
  planned: PlannedLine[]
  /** The stock the refund puts back when it restocks: only what the sale took (lines nobody counts drew none). */
  restockChanges: Parameters<InventoryPort['applyChanges']>[1]
}

/** A refund still pending, its order locked (the order row first, as every refund and payment locks it). */
export interface PendingRefund {
  order: OrderRow
  /** What loyalty takes points back on: the refunded and the whole, both without the tip (points are earned on lines). */
  loyaltyShare: { orderId: string; refundedTotal: bigint; orderTotal: bigint }
}

/** How a refund was asked for, as the settlement records it. */
export interface RefundTerms {
  restock: boolean
  reason: string
  approvedBy: string | null
}

const REFUNDABLE: readonly OrderStatus[] = ['open', 'completed', 'partially_refunded']

function reservation(
  refundId: string,
  orderId: string,
  amount: bigint,
  tip: bigint,
  planned: PlannedLine[],
  locationId: string,
): RefundReservation {
  return {
    refundId,
    orderId,
    amount,
    tip,
    planned,
    restockChanges: planned
      .filter((p) => p.line.tracked)
      .map((p) => ({
        productId: p.line.product_id,
        variantId: p.line.variant_id,
        locationId,
        quantity: p.quantity,
        reason: 'refund_restock' as const,
        reference: { type: 'refund', id: refundId },
      })),
  }
}

/**
 * The order's side of a refund (flows/refund.ts runs the whole): (1) under the order's row lock the amount and
 * line quantities are reserved (refunded_total grows at once, so a racing refund sees it); after the processor,
 * (2) a refusal releases them, or (3) the refund settles: status move, order.refunded. Steps 2 and 3 act only
 * while the refund is still pending (its row locked first), so a request and the worker finishing the same
 * refund settle it once.
 */
export function createOrderRefunds() {
  function plan(lines: LineRow[], input: RefundBody): PlannedLine[] {
    if (!input.lines) {
      // A refund without lines restocks (when asked) everything not yet refunded; its money is the amount.
      if (!input.restock) return []
      return lines
        .filter((l) => l.quantity > l.refunded_quantity)
        .map((l) => ({ line: l, quantity: l.quantity - l.refunded_quantity, amount: 0n }))
    }
    const wanted = new Map<string, number>()
    input.lines.forEach((l, i) => {
      if (!lines.some((x) => x.id === l.line_id))
        throw invalid(`lines.${i}.line_id`, 'does not name a line of this order', 'not_found')
      wanted.set(l.line_id, (wanted.get(l.line_id) ?? 0) + l.quantity)
    })
    return [...wanted].map(([lineId, quantity]) => {
      const line = lines.find((l) => l.id === lineId)!
      const left = line.quantity - line.refunded_quantity
      if (quantity > left)
        throw OrderErrors.REFUND_EXCEEDS_LINE(`line ${lineId} has ${left} unit(s) left to refund, not ${quantity}`)
      return {
        line,
        quantity,
        amount: lineRefundAmount(BigInt(line.line_total), line.quantity, line.refunded_quantity, quantity),
      }
    })
  }

  return {
    /** Step 1, in the flow's transaction: checks the refund against what is left and reserves it on the order. */
    async reserve(
      ctx: RequestContext,
      orderId: string,
      input: RefundBody & { restock: boolean; reason: string; includeTip: boolean },
      approvedBy: string | null,
    ): Promise<RefundReservation> {
      const refundId = newId('ref')
      return ctx.db.tx(async (q) => {
        const row = await repo.orderById(q, ctx.orgId, orderId, true)
        if (!row) throw notFound('order')
        const left = BigInt(row.captured_total) - BigInt(row.refunded_total)
        // The tip stays with whoever earned it unless the refund says so (docs/commerce.md "Tips").
        const tipLeft = BigInt(row.tip_amount) - BigInt(row.tip_refunded)
        // Only a tip that was paid goes back: while part of the order (a card authorization with its tip, say) is
        // not captured, the tip is not either.
        const tipPaid = BigInt(row.captured_total) >= BigInt(row.total)
        const tip = input.includeTip && tipPaid ? (tipLeft < left ? tipLeft : left) : 0n
        // A refunded order whose tip was kept may still give the tip back.
        const refundable = REFUNDABLE.includes(row.status) || (row.status === 'refunded' && tip > 0n)
        if (!refundable) throw OrderErrors.NOT_REFUNDABLE(`an order that is ${row.status} cannot be refunded`)
        const lines = await repo.linesOf(q, ctx.orgId, [orderId])
        const planned = plan(lines, input)
        const goodsLeft = left - tipLeft > 0n ? left - tipLeft : 0n
        let goods: bigint
        if (input.amount !== undefined) {
          goods = toMinor(input.amount, row.currency, 'amount')
          const byLines = planned.reduce((a, p) => a + p.amount, 0n)
          if (input.lines && goods > byLines)
            throw invalid('amount', 'exceeds the value of the refunded lines', 'out_of_range')
        } else {
          goods = input.lines ? planned.reduce((a, p) => a + p.amount, 0n) : goodsLeft
        }
        const amount = goods + tip
        if (amount <= 0n) throw OrderErrors.NOTHING_TO_REFUND('nothing is left to refund on this order')
        if (goods > goodsLeft || amount > left)
          throw OrderErrors.REFUND_EXCEEDS_CAPTURED(
            'a refund of this size exceeds what was captured and not yet refunded (the tip is refunded only with include_tip)',
          )
        await repo.insertRefund(q, ctx.orgId, {
          id: refundId,
          orderId,
          amount,
          reason: input.reason,
          restock: input.restock,
          lines: planned.map((p) => ({ line_id: p.line.id, quantity: p.quantity, amount: p.amount.toString() })),
          approvedBy,
          // The staff reports count a refund for who made it, at their till.
          refundedBy: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
          registerId: ctx.actor.registerId ?? null,
          tipAmount: tip,
        })
        await repo.addRefunded(q, ctx.orgId, orderId, amount, tip)
        for (const p of planned) await repo.addLineRefund(q, ctx.orgId, p.line.id, p.quantity, p.amount)
        return reservation(refundId, orderId, amount, tip, planned, row.location_id)
      })
    },

    /** The refund, with its order locked, while it is still pending; null once another finisher has settled or released it. */
    async lockPending(ctx: RequestContext, orderId: string, refundId: string): Promise<PendingRefund | null> {
      return ctx.db.tx(async (q) => {
        const order = await repo.orderById(q, ctx.orgId, orderId, true)
        if ((await repo.refundById(q, ctx.orgId, refundId, true))?.status !== 'pending' || !order) return null
        return {
          order,
          loyaltyShare: {
            orderId,
            refundedTotal: BigInt(order.refunded_total) - BigInt(order.tip_refunded),
            orderTotal: BigInt(order.total) - BigInt(order.tip_amount),
          },
        }
      })
    },

    /** Step 2, after a processor's refusal: what was reserved goes back, the refund is failed. */
    async release(ctx: RequestContext, reserved: RefundReservation, reason: string): Promise<void> {
      await ctx.db.tx(async (q) => {
        await repo.addRefunded(q, ctx.orgId, reserved.orderId, -reserved.amount, -reserved.tip)
        for (const p of reserved.planned) await repo.addLineRefund(q, ctx.orgId, p.line.id, -p.quantity, -p.amount)
        await repo.finishRefund(q, ctx.orgId, reserved.refundId, 'failed', reason)
      })
    },

    /**
     * Step 3 begins: the refund succeeded. Its row is marked before the stock and points of the refund are moved:
     * marking it counts it in the staff report (a trigger), whose row a sale locks before its customer's loyalty
     * member, so a refund takes them in the same order.
     */
    async succeed(ctx: RequestContext, refundId: string): Promise<void> {
      await ctx.db.tx((q) => repo.finishRefund(q, ctx.orgId, refundId, 'succeeded', null))
    },

    /** Step 3 ends: the order moves to (partially) refunded and says so (order.refunded). */
    async settle(
      ctx: RequestContext,
      reserved: RefundReservation,
      pending: PendingRefund,
      terms: RefundTerms,
      payments: OrderPayment[],
    ): Promise<void> {
      const { refundId, orderId } = reserved
      const row = pending.order
      await ctx.db.tx(async (q) => {
        let current = row
        if (row.status !== 'open') {
          // Everything but a tip the customer left is refunded.
          const tipKept = BigInt(row.tip_amount) - BigInt(row.tip_refunded)
          const everything =
            BigInt(row.refunded_total) + tipKept >= BigInt(row.captured_total) &&
            BigInt(row.captured_total) >= BigInt(row.total)
          const next: OrderStatus = everything ? 'refunded' : 'partially_refunded'
          if (next !== row.status) current = await moveStatus(q, ctx, row, next, terms.reason)
        }
        const order = toOrder(current, await repo.linesOf(q, ctx.orgId, [orderId]), {
          payments,
          refunds: await repo.refundsOf(q, ctx.orgId, orderId),
          history: await repo.historyOf(q, ctx.orgId, orderId),
        })
        await emitEvent(q, ctx.orgId, 'order.refunded', order)
        await recordAudit(q, ctx, {
          action: 'order.refunded',
          record: { type: 'order', id: orderId },
          changes: {
            refund_id: refundId,
            amount_minor: Number(reserved.amount),
            restock: terms.restock,
            reason: terms.reason,
            approved_by: terms.approvedBy,
          },
        })
      })
    },

    /** A refund its request left pending, as step 1 reserved it, for the worker to finish; null once finished. */
    async pending(ctx: RequestContext, refundId: string): Promise<(RefundReservation & RefundTerms) | null> {
      return ctx.db.read(async (q) => {
        const refund = await repo.refundById(q, ctx.orgId, refundId)
        if (refund?.status !== 'pending') return null
        const order = (await repo.orderById(q, ctx.orgId, refund.order_id))!
        const lines = await repo.linesOf(q, ctx.orgId, [refund.order_id])
        const planned = refund.lines.map((l) => ({
          line: lines.find((x) => x.id === l.line_id)!,
          quantity: l.quantity,
          amount: BigInt(l.amount),
        }))
        return {
          ...reservation(
            refundId,
            refund.order_id,
            BigInt(refund.amount),
            BigInt(refund.tip_amount),
            planned,
            order.location_id,
          ),
          restock: refund.restock,
          reason: refund.reason,
          approvedBy: refund.approved_by,
        }
      })
    },
  }
}

export type OrderRefunds = ReturnType<typeof createOrderRefunds>
