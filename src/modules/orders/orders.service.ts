import { allInOrder } from '../../platform/all-in-order.ts'
import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent, newEventId } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import { actorOf, type RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { currencyExponent } from '../../platform/money/money.ts'
import { recordAudit } from '../audit/index.ts'
import { mayMove, moveStatus } from './order-status.ts'
import { OrderErrors } from './orders.errors.ts'
import * as repo from './orders.repo.ts'
import type { CustomerOrdersQuery, OrderListQuery, OrderPayment, OrderStatus, StatusBody } from './orders.schemas.ts'
import type { LineRow, OrderRow } from './orders.tables.ts'
import { type Order, pointsMultiplierE4, type StoredDiscount, toOrder } from './orders.views.ts'
import type { ApprovalsPort, CustomersPort, InventoryPort } from './ports.ts'
import {
  ownDiscountPercent,
  type PricedOrder,
  parseDiscounts,
  refuseUsedUpVouchers,
  storedDiscounts,
} from './pricing.ts'
import { computeTotals } from './totals.ts'

interface OrdersDeps {
  inventory: InventoryPort
  customers: CustomersPort
  approvals: ApprovalsPort
}

/**
 * The row a new order will be, for its event's data before the insert; the columns the database fills in
 * (version, loyalty points, timestamps) are placeholders that the insert statement replaces with the stored values.
 */
function provisionalRow(orgId: string, o: repo.NewOrder): OrderRow {
  const epoch = new Date(0)
  return {
    id: o.id,
    // The number the insert takes is written into the event by the same statement.
    number: o.number ?? '0',
    org_id: orgId,
    location_id: o.locationId,
    customer_id: o.customerId,
    layby_id: o.laybyId,
    status: o.status,
    currency: o.currency,
    prices_include_tax: o.pricesIncludeTax,
    subtotal: o.subtotal.toString(),
    discount_total: o.discountTotal.toString(),
    tax_total: o.taxTotal.toString(),
    total: o.total.toString(),
    captured_total: o.capturedTotal.toString(),
    refunded_total: '0',
    discount: o.discount,
    note: o.note,
    loyalty_points_earned: 0,
    sold_by: o.soldBy,
    register_id: o.registerId,
    shift_id: o.shiftId,
    tip_amount: o.tipAmount.toString(),
    tip_refunded: '0',
    client_sale_id: o.clientSaleId ?? null,
    sold_at: o.soldAt ?? null,
    version: 1,
    created_at: epoch,
    updated_at: epoch,
    completed_at: null,
  }
}

/**
 * An order that has just become completed (an open order paid in full, a lay-by collected, a till's offline sale),
 * in the transaction that completed it: flows/complete-sale.ts accrues its customer's points on `basis`, then
 * announceCompleted writes them on the row (loyalty_points_earned) and says order.completed.
 */
export interface Completion {
  readonly row: OrderRow
  readonly lines: LineRow[]
  /** What loyalty points are earned on. */
  readonly basis: {
    id: string
    customerId: string | null
    currency: string
    /** What was paid for each line net of tax, whether prices include it or not (minor units). */
    lines: { productId: string; spent: bigint }[]
    /** Campaigns' points multipliers on the order, multiplied together (× 10,000). */
    pointsMultiplierE4: bigint
  }
}

function completion(row: OrderRow, lines: LineRow[]): Completion {
  return {
    row,
    lines,
    basis: {
      id: row.id,
      customerId: row.customer_id,
      currency: row.currency,
      lines: lines.map((l) => ({ productId: l.product_id, spent: BigInt(l.line_total) - BigInt(l.line_tax) })),
      pointsMultiplierE4: pointsMultiplierE4(row.discount),
    },
  }
}

const approved = Symbol('approved by approveVoid')

/** A void under way (startVoid), in its transaction. */
export interface Voiding {
  readonly before: OrderRow
  readonly moved: OrderRow
  readonly reason: string
  readonly approvedBy: string | null
}

/** A void's approval, from approveVoid only: who approved it (null when the caller needed nobody). */
export interface VoidApproval {
  approvedBy: string | null
  readonly [approved]: true
}

/** What a locked order tells the payments module. */
interface PayableOrder {
  id: string
  status: OrderStatus
  currency: string
  total: bigint
  capturedTotal: bigint
  refundedTotal: bigint
  /** The tip, in the total. */
  tip: bigint
}

export function createOrdersService(deps: OrdersDeps) {
  async function load(q: Queryable, ctx: RequestContext, id: string): Promise<Order> {
    const row = await repo.orderById(q, ctx.orgId, id)
    if (!row) throw notFound('order')
    return toOrder(row, await repo.linesOf(q, ctx.orgId, [id]))
  }

  /** The order, locked, at the version the caller expects, in a status it may move `to` from (a 409 otherwise). */
  async function lockedFor(
    q: Queryable,
    ctx: RequestContext,
    id: string,
    to: OrderStatus,
    expectedVersion: number | undefined,
  ): Promise<OrderRow> {
    const row = await repo.orderById(q, ctx.orgId, id, true)
    if (!row) throw notFound('order')
    if (expectedVersion !== undefined && row.version !== expectedVersion) throw staleVersion(row.version)
    if (!mayMove(row.status, to)) throw OrderErrors.NOT_OPEN(`an order that is ${row.status} cannot become ${to}`)
    return row
  }

  /** An open order, paid in full, completes. */
  async function complete(q: Queryable, ctx: RequestContext, row: OrderRow, lines: LineRow[], reason: string) {
    return completion(await moveStatus(q, ctx, row, 'completed', reason), lines)
  }

  /**
   * The till's own order discounts, as a share of the subtotal, against the store's approval limit for staff; an
   * approved discount records its approver.
   */
  async function approveDiscounts(ctx: RequestContext, priced: PricedOrder, approvedBy: string | null) {
    await deps.approvals.assertApproved(ctx, { kind: 'discount', percent: ownDiscountPercent(priced) }, approvedBy)
    if (approvedBy) for (const d of priced.discounts) if (d.type !== 'campaign') d.approved_by = approvedBy
  }

  function auditDiscounts(
    q: Queryable,
    ctx: RequestContext,
    orderId: string,
    priced: PricedOrder,
    approvedBy: string | null,
  ): Promise<void> {
    return recordAudit(q, ctx, {
      action: 'order.discounted',
      record: { type: 'order', id: orderId },
      changes: {
        discounts: priced.discounts.flatMap((d) =>
          d.type === 'campaign'
            ? []
            : [{ type: d.type, value: d.value, amount_minor: Number(d.amount), reason: d.reason }],
        ),
        subtotal_minor: Number(priced.totals.subtotal),
        approved_by: approvedBy,
      },
    })
  }

  const service = {
    /**
     * A priced sale's own checks (flows/sell.ts), before anything is written: a used-up voucher it presented, and the
     * till's own discounts against the store's approval limit (an approved discount records its approver).
     */
    async checkPriced(ctx: RequestContext, priced: PricedOrder, approvedBy: string | null): Promise<void> {
      refuseUsedUpVouchers(priced)
      if (priced.discounts.length > 0) await approveDiscounts(ctx, priced, approvedBy)
    },

    /**
     * A sale's record, in the sale's transaction (flows/sell.ts): the open order with its lines and order.created,
     * written by one statement, and the audit of the till's own discounts, both sent at once without waiting.
     * `numbering` keeps the number the insert took, for a second attempt of the same sale.
     */
    record(
      ctx: RequestContext,
      orderId: string,
      priced: PricedOrder,
      sale: { locationId: string; customerId: string | null; shiftId: string | null; note: string },
      approvedBy: string | null,
      numbering: { number: string | null },
    ): Promise<Order> {
      return ctx.db.tx(async (q) => {
        const inserted = insertPriced(q, ctx, orderId, priced, {
          ...sale,
          laybyId: null,
          status: 'open',
          capturedTotal: 0n,
          // Taken by the insert itself; a second attempt keeps the first one's (its insert ran before the refusal).
          number: numbering.number,
          // The order's event is written by the order's own statement.
          eventType: 'order.created',
        })
        inserted.then(({ row }) => (numbering.number = row.number)).catch(() => {})
        const audited = priced.discounts.length > 0 ? auditDiscounts(q, ctx, orderId, priced, approvedBy) : null
        const [{ row, lines }] = await allInOrder(inserted, audited ?? Promise.resolve())
        return toOrder(row, lines)
      })
    },

    async list(ctx: RequestContext, query: OrderListQuery): Promise<Page<Order>> {
      const afterId = afterIdOf(query.cursor)
      const date = (value: string | undefined, field: string) => {
        if (value === undefined) return null
        const d = new Date(value)
        if (Number.isNaN(d.getTime())) throw invalid(field, 'is not a timestamp', 'invalid_format')
        return d
      }
      return ctx.db.read(async (q) => {
        const rows = await repo.listOrders(q, ctx.orgId, {
          afterId: afterId ?? null,
          status: query.status ?? null,
          createdFrom: date(query.created_from, 'created_from'),
          createdTo: date(query.created_to, 'created_to'),
          locationId: query.location_id ?? null,
          customerId: query.customer_id ?? null,
          registerId: query.register_id ?? null,
          number: query.number ?? null,
          order: query.order,
          limit: query.limit + 1,
        })
        const served = rows.slice(0, query.limit)
        const lines = served.length
          ? await repo.linesOf(
              q,
              ctx.orgId,
              served.map((r) => r.id),
            )
          : []
        const byOrder = new Map<string, LineRow[]>()
        for (const l of lines) byOrder.set(l.order_id, [...(byOrder.get(l.order_id) ?? []), l])
        return toPage(
          rows,
          query.limit,
          (r) => [r.id],
          (r) => toOrder(r, byOrder.get(r.id) ?? []),
        )
      })
    },

    /** An order with its lines, refunds and status history, and its payments (flows/order-detail.ts reads them). */
    async get(ctx: RequestContext, id: string, payments: OrderPayment[]): Promise<Order> {
      const { row, lines, refunds, history } = await ctx.db.read(async (q) => {
        const row = await repo.orderById(q, ctx.orgId, id)
        if (!row) throw notFound('order')
        return {
          row,
          lines: await repo.linesOf(q, ctx.orgId, [id]),
          refunds: await repo.refundsOf(q, ctx.orgId, id),
          history: await repo.historyOf(q, ctx.orgId, id),
        }
      })
      return toOrder(row, lines, { payments, refunds, history })
    },

    async listForCustomer(ctx: RequestContext, customerId: string, query: CustomerOrdersQuery): Promise<Page<Order>> {
      try {
        await deps.customers.assertExists(ctx, customerId, 'id')
      } catch {
        throw notFound('customer')
      }
      return service.list(ctx, { ...query, customer_id: customerId })
    },

    /**
     * A void's approval, checked first (flows/change-order-status.ts): a void staff may not make alone changes
     * nothing, not even the open intents voided before the order.
     */
    async approveVoid(ctx: RequestContext, input: Omit<StatusBody, 'version'>): Promise<VoidApproval> {
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      await deps.approvals.assertApproved(ctx, { kind: 'void' }, approvedBy)
      return { approvedBy, [approved]: true }
    },

    /** PATCH status to a status an order is never moved to by hand: a 409 naming where it stands. */
    async refuseMove(ctx: RequestContext, id: string, status: OrderStatus): Promise<never> {
      const current = await ctx.db.read((q) => repo.orderById(q, ctx.orgId, id))
      if (!current) throw notFound('order')
      throw OrderErrors.ILLEGAL_MOVE(`an order that is ${current.status} cannot become ${status}`)
    },

    /** PATCH status completed: an open order paid in full completes (flows/change-order-status.ts announces it). */
    async complete(
      ctx: RequestContext,
      id: string,
      input: { reason?: string },
      expectedVersion: number | undefined,
    ): Promise<Completion> {
      return ctx.db.tx(async (q) => {
        const row = await lockedFor(q, ctx, id, 'completed', expectedVersion)
        if (BigInt(row.captured_total) - BigInt(row.refunded_total) < BigInt(row.total)) {
          throw OrderErrors.NOT_PAID('the order is not fully paid: capture its balance first')
        }
        return complete(q, ctx, row, await repo.linesOf(q, ctx.orgId, [id]), input.reason ?? '')
      })
    },

    /**
     * PATCH status voided, its first step (flows/change-order-status.ts): an open order with no captured money
     * left on it, approved by approveVoid (its uncaptured intents voided first), is voided; finishVoid gives back
     * its stock and says so once the campaign uses and redeemed points are back.
     */
    async startVoid(
      ctx: RequestContext,
      id: string,
      input: { reason?: string },
      expectedVersion: number | undefined,
      voidApproval: VoidApproval,
    ): Promise<Voiding> {
      if (!voidApproval[approved]) throw new Error('a void needs approveVoid first')
      return ctx.db.tx(async (q) => {
        const row = await lockedFor(q, ctx, id, 'voided', expectedVersion)
        if (BigInt(row.captured_total) !== BigInt(row.refunded_total)) {
          throw OrderErrors.HAS_PAYMENTS('the order has captured payments: refund them before voiding it')
        }
        const reason = input.reason ?? ''
        const moved = await moveStatus(q, ctx, row, 'voided', reason, voidApproval.approvedBy)
        return { before: row, moved, reason, approvedBy: voidApproval.approvedBy }
      })
    },

    /** A void's last step: the stock back on the shelf (a lay-by's order took none), order.voided, the audit log. */
    async finishVoid(ctx: RequestContext, voiding: Voiding): Promise<Order> {
      const { before, moved } = voiding
      const id = before.id
      return ctx.db.tx(async (q) => {
        const lines = await repo.linesOf(q, ctx.orgId, [id])
        if (!before.layby_id) {
          await deps.inventory.applyChanges(
            ctx,
            lines
              .filter((l) => l.tracked && l.quantity > l.refunded_quantity)
              .map((l) => ({
                productId: l.product_id,
                variantId: l.variant_id,
                locationId: before.location_id,
                quantity: l.quantity - l.refunded_quantity,
                reason: 'return' as const,
                reference: { type: 'order', id },
              })),
          )
        }
        const voided = toOrder(moved, lines)
        await emitEvent(q, ctx.orgId, 'order.voided', voided)
        await recordAudit(q, ctx, {
          action: 'order.voided',
          record: { type: 'order', id },
          changes: {
            status: { from: before.status, to: 'voided' },
            total_minor: Number(before.total),
            reason: voiding.reason,
            approved_by: voiding.approvedBy,
          },
        })
        return voided
      })
    },

    /**
     * An order just completed, once its points have accrued (flows/complete-sale.ts): the row shows them
     * (loyalty_points_earned), then order.completed.
     */
    async announceCompleted(ctx: RequestContext, done: Completion, points: number): Promise<Order> {
      return ctx.db.tx(async (q) => {
        const row = points > 0 ? await repo.setLoyaltyPoints(q, ctx.orgId, done.row.id, points) : done.row
        const order = toOrder(row, done.lines)
        await emitEvent(q, ctx.orgId, 'order.completed', order)
        return order
      })
    },

    /** For payments, inside their transaction: the order locked against concurrent payments and refunds. */
    async lockForPayment(ctx: RequestContext, orderId: string): Promise<PayableOrder> {
      return ctx.db.tx(async (q) => {
        const row = await repo.orderById(q, ctx.orgId, orderId, true)
        if (!row) throw notFound('order')
        return {
          id: row.id,
          status: row.status,
          currency: row.currency,
          total: BigInt(row.total),
          capturedTotal: BigInt(row.captured_total),
          refundedTotal: BigInt(row.refunded_total),
          tip: BigInt(row.tip_amount),
        }
      })
    },

    /**
     * For payments, in the payment's transaction (the order locked by lockForPayment): adds `delta` to the tip and
     * the total, and tells order.updated. The payment checked the store's cap.
     */
    async addTip(ctx: RequestContext, orderId: string, delta: bigint): Promise<void> {
      await ctx.db.tx(async (q) => {
        const row = await repo.addTip(q, ctx.orgId, orderId, delta)
        await emitEvent(q, ctx.orgId, 'order.updated', toOrder(row, await repo.linesOf(q, ctx.orgId, [orderId])))
      })
    },

    /** For payments: counts a capture; an open order that is now fully paid completes (its completion answered). */
    async recordCapture(ctx: RequestContext, orderId: string, amount: bigint): Promise<Completion | null> {
      return ctx.db.tx(async (q) => {
        const row = await repo.addCaptured(q, ctx.orgId, orderId, amount)
        if (
          !mayMove(row.status, 'completed') ||
          BigInt(row.captured_total) - BigInt(row.refunded_total) < BigInt(row.total)
        )
          return null
        return complete(q, ctx, row, await repo.linesOf(q, ctx.orgId, [orderId]), 'fully paid')
      })
    },

    /**
     * For lay-bys: the completed order of a collected lay-by. Its stock was taken when the lay-by reserved it and
     * its payments were captured against the lay-by, so neither moves again.
     */
    async createFromLayby(
      ctx: RequestContext,
      input: {
        laybyId: string
        locationId: string
        customerId: string
        priced: PricedOrder
        paid: bigint
        note: string
      },
    ): Promise<Completion> {
      return ctx.db.tx(async (q) => {
        const orderId = newId('ord')
        const { row, lines } = await insertPriced(q, ctx, orderId, input.priced, {
          locationId: input.locationId,
          customerId: input.customerId,
          laybyId: input.laybyId,
          status: 'completed',
          capturedTotal: input.paid,
          note: input.note,
          // A collected lay-by was paid over many shifts: its payments name theirs.
          shiftId: null,
          number: null,
        })
        await emitEvent(q, ctx.orgId, 'order.created', toOrder(row, lines))
        return completion(row, lines)
      })
    },

    /**
     * For a till's offline sale (docs/sync.md): the order as the till priced it, completed at the time it was sold
     * when its payments cover it (its completion answered, for its points to accrue), else open with the rest due. Its events carry its
     * client_sale_id, by which kitchen screens leave it out. Joins the caller's transaction; the caller takes the
     * stock and records the payments.
     */
    async recordOffline(
      ctx: RequestContext,
      input: {
        clientSaleId: string
        soldAt: Date
        locationId: string
        customerId: string | null
        shiftId: string | null
        soldBy: string | null
        priced: PricedOrder
        paid: bigint
        note: string
        /** A number the till held (checked by claimTillNumber), or null for the org's next one. */
        number: number | null
      },
    ): Promise<{ order: Order; completion: null } | { order: null; completion: Completion }> {
      return ctx.db.tx(async (q) => {
        const paidInFull = input.paid >= input.priced.totals.total + input.priced.tip
        const { row, lines } = await insertPriced(q, ctx, newId('ord'), input.priced, {
          locationId: input.locationId,
          customerId: input.customerId,
          laybyId: null,
          status: paidInFull ? 'completed' : 'open',
          capturedTotal: input.paid,
          note: input.note,
          shiftId: input.shiftId,
          number: input.number === null ? null : String(input.number),
          eventType: 'order.created',
          offline: { soldBy: input.soldBy, clientSaleId: input.clientSaleId, soldAt: input.soldAt },
        })
        if (!paidInFull) return { order: toOrder(row, lines), completion: null }
        return { order: null, completion: completion(row, lines) }
      })
    },

    /**
     * Order numbers for a till's offline sales (docs/sync.md): it is topped up to `count` unused ones, taken from
     * the org's sequence like any sale's, and answers them all, in order.
     */
    reserveTillNumbers: (ctx: RequestContext, deviceId: string, count: number): Promise<number[]> =>
      ctx.db.tx((q) => repo.reserveTillNumbers(q, ctx.orgId, deviceId, count)),

    /** Uses one of the till's numbers for a sale it made; false when it holds no such unused number. */
    claimTillNumber: (ctx: RequestContext, deviceId: string, number: number): Promise<boolean> =>
      ctx.db.tx((q) => repo.claimTillNumber(q, ctx.orgId, deviceId, number)),

    /** Which of these offline sales were recorded already, and as what (id and number), by the till's ids. */
    async recordedSales(ctx: RequestContext, clientSaleIds: readonly string[]) {
      const rows = await ctx.db.read((q) => repo.recordedSales(q, ctx.orgId, clientSaleIds))
      return new Map(rows.map((r) => [r.client_sale_id, { id: r.id, number: Number(r.number) }]))
    },

    async purchaseSummary(ctx: RequestContext, customerId: string) {
      const s = await ctx.db.read((q) => repo.purchaseSummary(q, ctx.orgId, customerId))
      return {
        orderCount: Number(s.count),
        totalSpent: BigInt(s.spent ?? 0),
        totalRefunded: BigInt(s.refunded ?? 0),
        firstOrderAt: s.first,
        lastOrderAt: s.last,
      }
    },

    /**
     * For loyalty: up to `amount` off an open order that nothing has been paid on yet (a points reward; its total caps
     * it), in the caller's transaction, the discount's reason worded from what was taken. The totals are computed
     * again from the stored lines: campaigns' line discounts stay as they were, the till's and the reward's order
     * discounts apply to the rest; order.updated carries the result. Answers the order and what was taken.
     */
    async applyLoyaltyDiscount(
      ctx: RequestContext,
      orderId: string,
      amount: bigint,
      reasonFor: (applied: bigint) => string,
    ): Promise<{ order: Order; applied: bigint }> {
      return ctx.db.tx(async (q) => {
        const row = await repo.orderById(q, ctx.orgId, orderId, true)
        if (!row) throw notFound('order')
        if (row.status !== 'open') throw OrderErrors.NOT_OPEN(`a ${row.status} order cannot take a loyalty reward`)
        if (BigInt(row.captured_total) > 0n)
          throw OrderErrors.ALREADY_PAID('a reward goes on an order before it is paid')
        const lines = await repo.linesOf(q, ctx.orgId, [orderId])
        const stored = (row.discount as StoredDiscount[] | null) ?? []
        const own = stored.filter((d) => d.type !== 'campaign')
        const campaignOff = (lineId: string) =>
          stored.reduce(
            (a, d) => a + (d.type === 'campaign' ? BigInt(d.lines.find((l) => l.line_id === lineId)?.amount ?? 0) : 0n),
            0n,
          )
        const discounts = [
          ...parseDiscounts(
            own.map((d) => ({ type: d.type, value: d.value, reason: d.reason })),
            row.currency,
          ),
          { type: 'amount' as const, amount },
        ]
        const totals = computeTotals(
          lines.map((l) => ({
            unitPrice: BigInt(l.unit_price),
            quantity: l.quantity,
            taxRateE4: l.tax_rate_e4,
            campaignDiscount: campaignOff(l.id),
          })),
          discounts,
          row.prices_include_tax,
        )
        const rewardAmount = totals.discountAmounts[totals.discountAmounts.length - 1]
        const ownAfter: StoredDiscount[] = [
          ...own.map((d, i) => ({ ...d, amount: totals.discountAmounts[i].toString() })),
          {
            type: 'amount',
            value: Number(rewardAmount) / 10 ** currencyExponent(row.currency),
            reason: reasonFor(rewardAmount),
            amount: rewardAmount.toString(),
          },
        ]
        const updated = await repo.setTotals(
          q,
          ctx.orgId,
          orderId,
          {
            subtotal: totals.subtotal,
            discountTotal: totals.discountTotal,
            taxTotal: totals.taxTotal,
            total: totals.total,
            discount: [...stored.filter((d) => d.type === 'campaign'), ...ownAfter],
          },
          lines.map((l, i) => ({ id: l.id, ...totals.lines[i] })),
        )
        const order = toOrder(updated, await repo.linesOf(q, ctx.orgId, [orderId]))
        await emitEvent(q, ctx.orgId, 'order.updated', order)
        return { order, applied: rewardAmount }
      })
    },

    /** Loads an order inside the caller's scope (used after refunds). */
    load: (ctx: RequestContext, id: string) => ctx.db.read((q) => load(q, ctx, id)),
  }

  async function insertPriced(
    q: Queryable,
    ctx: RequestContext,
    orderId: string,
    priced: PricedOrder,
    o: {
      locationId: string
      customerId: string | null
      laybyId: string | null
      status: OrderStatus
      capturedTotal: bigint
      note: string
      /** The register shift the sale names (checked open before the transaction). */
      shiftId: string | null
      /** The order's number, or null for the insert to take the org's next one. */
      number: string | null
      /** Writes this event of the new order in the same statement. */
      eventType?: string
      /** A till's offline sale: who the till says sold it, its id there and when it was sold. */
      offline?: { soldBy: string | null; clientSaleId: string; soldAt: Date }
    },
  ) {
    const newOrder: repo.NewOrder = {
      id: orderId,
      locationId: o.locationId,
      customerId: o.customerId,
      laybyId: o.laybyId,
      status: o.status,
      currency: priced.currency,
      pricesIncludeTax: priced.pricesIncludeTax,
      subtotal: priced.totals.subtotal,
      discountTotal: priced.totals.discountTotal,
      taxTotal: priced.totals.taxTotal,
      total: priced.totals.total + priced.tip,
      capturedTotal: o.capturedTotal,
      discount: null,
      note: o.note,
      // A person's sale (a web shop's app is nobody's), and the till's register for a PIN session.
      soldBy: o.offline ? o.offline.soldBy : ctx.actor.kind === 'user' ? ctx.actor.userId : null,
      registerId: ctx.actor.registerId ?? null,
      shiftId: o.shiftId,
      number: o.number,
      tipAmount: priced.tip,
      clientSaleId: o.offline?.clientSaleId ?? null,
      soldAt: o.offline?.soldAt ?? null,
    }
    const lineIds = priced.quoted.map(() => newId('oli'))
    const discounts = storedDiscounts(priced, lineIds)
    newOrder.discount = discounts.length ? discounts : null
    const newLines: repo.NewLine[] = priced.quoted.map((l, i) => ({
      id: lineIds[i],
      productId: l.productId,
      variantId: l.variantId,
      name: l.name,
      quantity: l.quantity,
      basePrice: l.basePrice,
      unitPrice: priced.unitPrices[i],
      modifiers: l.modifiers.map((m) => ({
        id: m.id,
        group_id: m.groupId,
        name: m.name,
        price_adjustment: m.priceAdjustment.toString(),
      })),
      note: priced.notes[i],
      taxRateE4: priced.rates[i],
      ...priced.totals.lines[i],
      tracked: l.tracked,
    }))
    const event = o.eventType
      ? {
          id: newEventId(),
          type: o.eventType,
          data: toOrder(provisionalRow(ctx.orgId, newOrder), repo.writtenLines(orderId, newLines)),
        }
      : undefined
    const { order, lines } = await repo.insertOrder(q, ctx.orgId, {
      order: newOrder,
      lines: newLines,
      history: { id: newId('osh'), reason: 'created', actor: actorOf(ctx) },
      event,
    })
    return { row: order, lines }
  }

  return service
}

export type OrdersService = ReturnType<typeof createOrdersService>
