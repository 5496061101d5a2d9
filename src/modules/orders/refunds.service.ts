import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { toMinor } from '../../platform/money/money.ts'
import { recordAudit } from '../audit/index.ts'
import { moveStatus } from './order-status.ts'
import { OrderErrors } from './orders.errors.ts'
import * as repo from './orders.repo.ts'
import type { OrderStatus, RefundBody } from './orders.schemas.ts'
import type { OrdersService } from './orders.service.ts'
import type { LineRow } from './orders.tables.ts'
import { type Order, toOrder } from './orders.views.ts'
import type { ApprovalsPort, InventoryPort, LoyaltyPort, OrderPaymentsPort, RefundPart } from './ports.ts'
import { lineRefundAmount } from './totals.ts'

interface PlannedLine {
  line: LineRow
  quantity: number
  amount: bigint
}

/** What step 1 reserved: the amount on the order and its lines, and each payment's part. */
interface Reserved {
  refundId: string
  orderId: string
  amount: bigint
  /** What of the amount is the tip. */
  tip: bigint
  planned: PlannedLine[]
  parts: RefundPart[]
  locationId: string
}

const REFUNDABLE: readonly OrderStatus[] = ['open', 'completed', 'partially_refunded']

/**
 * Refunds by line or by amount, never more than was captured and not yet refunded. Three steps so the processor
 * is called outside any transaction: (1) under the order's row lock the amount and line quantities are reserved
 * (refunded_total grows at once, so a racing refund sees it), (2) the processor refunds, (3) the refund settles:
 * restock, status move, order.refunded. A processor refusal releases the reservation and answers 409.
 */
export function createRefundsService(deps: {
  orders: OrdersService
  approvals: ApprovalsPort
  inventory: InventoryPort
  payments: () => OrderPaymentsPort
  loyalty: () => LoyaltyPort
}) {
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

  /**
   * Steps 2 and 3: the processor, outside any transaction, then the settlement or, on a refusal, the release.
   * Each runs only while the refund is still pending (its row locked first), so a request and the worker
   * finishing the same refund settle it once.
   */
  async function finish(
    ctx: RequestContext,
    reserved: Reserved,
    how: { restock: boolean; reason: string; shiftId: string | null; approvedBy: string | null },
  ): Promise<void> {
    const { refundId, orderId } = reserved
    const outcome = await deps.payments().executeRefund(ctx, refundId, reserved.parts)
    // The order, locked, while the refund is still pending (the order row first, as every refund and payment locks
    // it, so concurrent refunds cannot deadlock); null once another finisher has settled or released the refund.
    const lockedWhilePending = async (q: Queryable) => {
      const order = await repo.orderById(q, ctx.orgId, orderId, true)
      return (await repo.refundById(q, ctx.orgId, refundId, true))?.status === 'pending' ? order : null
    }

    if (!outcome.ok) {
      await ctx.db.tx(async (q) => {
        if (!(await lockedWhilePending(q))) return
        await deps.payments().releaseRefund(ctx, refundId, reserved.parts)
        await repo.addRefunded(q, ctx.orgId, orderId, -reserved.amount, -reserved.tip)
        for (const p of reserved.planned) await repo.addLineRefund(q, ctx.orgId, p.line.id, -p.quantity, -p.amount)
        await repo.finishRefund(q, ctx.orgId, refundId, 'failed', outcome.reason)
      })
      throw OrderErrors.PROCESSOR_REFUSED(`the payment processor refused the refund: ${outcome.reason}`)
    }

    await ctx.db.tx(async (q) => {
      const row = await lockedWhilePending(q)
      if (!row) return
      await deps.payments().settleRefund(ctx, refundId, reserved.parts, how.shiftId, outcome.refs)
      await repo.finishRefund(q, ctx.orgId, refundId, 'succeeded', null)
      // Only what the sale took goes back: lines nobody counts drew no stock.
      const restocked = reserved.planned.filter((p) => p.line.tracked)
      if (how.restock && restocked.length) {
        await deps.inventory.applyChanges(
          ctx,
          restocked.map((p) => ({
            productId: p.line.product_id,
            variantId: p.line.variant_id,
            locationId: reserved.locationId,
            quantity: p.quantity,
            reason: 'refund_restock' as const,
            reference: { type: 'refund', id: refundId },
          })),
        )
      }
      await deps.loyalty().reverseForRefund(q, ctx, {
        orderId,
        // Points were earned on the lines: the tip is left out of both sides.
        refundedTotal: BigInt(row.refunded_total) - BigInt(row.tip_refunded),
        orderTotal: BigInt(row.total) - BigInt(row.tip_amount),
      })
      let current = row
      if (row.status !== 'open') {
        // Everything but a tip the customer left is refunded.
        const tipKept = BigInt(row.tip_amount) - BigInt(row.tip_refunded)
        const everything =
          BigInt(row.refunded_total) + tipKept >= BigInt(row.captured_total) &&
          BigInt(row.captured_total) >= BigInt(row.total)
        const next: OrderStatus = everything ? 'refunded' : 'partially_refunded'
        if (next !== row.status) current = await moveStatus(q, ctx, row, next, how.reason)
      }
      const order = toOrder(current, await repo.linesOf(q, ctx.orgId, [orderId]), {
        payments: await deps.payments().listForOrder(ctx, orderId),
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
          restock: how.restock,
          reason: how.reason,
          approved_by: how.approvedBy,
        },
      })
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
      const refundId = newId('ref')
      // Step 1: reserve.
      const reserved = await ctx.db.tx(async (q) => {
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
        const parts = await deps.payments().reserveRefund(ctx, orderId, refundId, amount)
        return { refundId, orderId, amount, tip, planned, parts, locationId: row.location_id }
      })
      await finish(ctx, reserved, {
        restock: input.restock,
        reason: input.reason,
        shiftId: input.shift_id ?? null,
        approvedBy,
      })
      return deps.orders.get(ctx, orderId)
    },

    /**
     * Finishes a refund its request left pending (the worker, once no request can still be running): the
     * processor again under the same references, which it answers as the first time, then the settlement.
     */
    async resumeStalled(ctx: RequestContext, refundId: string): Promise<void> {
      const reserved = await ctx.db.read(async (q) => {
        const refund = await repo.refundById(q, ctx.orgId, refundId)
        if (refund?.status !== 'pending') return null
        const order = (await repo.orderById(q, ctx.orgId, refund.order_id))!
        const lines = await repo.linesOf(q, ctx.orgId, [refund.order_id])
        return {
          refund,
          reserved: {
            refundId,
            orderId: refund.order_id,
            amount: BigInt(refund.amount),
            tip: BigInt(refund.tip_amount),
            planned: refund.lines.map((l) => ({
              line: lines.find((x) => x.id === l.line_id)!,
              quantity: l.quantity,
              amount: BigInt(l.amount),
            })),
            parts: await deps.payments().partsOfRefund(ctx, refundId),
            locationId: order.location_id,
          },
        }
      })
      if (!reserved) return
      const { refund } = reserved
      await finish(ctx, reserved.reserved, {
        restock: refund.restock,
        reason: refund.reason,
        shiftId: null,
        approvedBy: refund.approved_by,
      })
    },
  }
}

export type RefundsService = ReturnType<typeof createRefundsService>
