import type { Queryable } from '../../platform/db/database.ts'
import { listDirection } from '../../platform/db/list-direction.ts'
import { jsonTimestampSql, outboxInsertSql } from '../../platform/events/outbox.ts'
import type { OrderStatus } from './orders.schemas.ts'
import {
  type HistoryRow,
  historyColumns,
  type LineRow,
  lineColumns,
  type OrderRow,
  orderColumns,
  type RefundRow,
  refundColumns,
} from './orders.tables.ts'

export interface NewOrder {
  id: string
  locationId: string
  customerId: string | null
  laybyId: string | null
  status: OrderStatus
  currency: string
  pricesIncludeTax: boolean
  subtotal: bigint
  discountTotal: bigint
  taxTotal: bigint
  total: bigint
  capturedTotal: bigint
  discount: unknown
  note: string
  soldBy: string | null
  registerId: string | null
  shiftId: string | null
  /** Null: the insert takes the org's next number (its sequence, db/migrations/0145); else the one given. */
  number: string | null
  /** The tip, already in `total`. */
  tipAmount: bigint
  /** A sale a till made offline: its id there and when it was sold (then also its completion time). */
  clientSaleId?: string | null
  soldAt?: Date | null
}

export interface NewLine {
  id: string
  productId: string
  variantId: string | null
  name: string
  quantity: number
  basePrice: bigint
  unitPrice: bigint
  modifiers: LineRow['modifiers']
  note: string
  taxRateE4: number
  lineSubtotal: bigint
  lineDiscount: bigint
  lineTax: bigint
  lineTotal: bigint
  /** Whether the sale draws stock for the line. */
  tracked: boolean
}

/** What creating an order writes, all in one statement. */
interface OrderInsert {
  order: NewOrder
  lines: readonly NewLine[]
  /** The order's first status history row. */
  history: { id: string; reason: string; actor: string }
  /** The order's event, written by the same statement; `data` is the order as the API shows it. */
  event?: { id: string; type: string; data: object }
}

/**
 * The columns the database fills in (defaults and timestamps) are taken from the inserted row, so the event holds
 * exactly what a read of the order returns.
 */
const eventSql = outboxInsertSql({
  id: '$42',
  orgId: 'o.org_id',
  type: '$43',
  // to_char of a NULL completed_at is NULL, which jsonb_build_object writes as JSON null.
  data: `$44::jsonb || jsonb_build_object('number', o.number, 'version', o.version,
    'loyalty_points_earned', o.loyalty_points_earned,
    'created_at', ${jsonTimestampSql('o.created_at')}, 'updated_at', ${jsonTimestampSql('o.updated_at')},
    'completed_at', ${jsonTimestampSql('o.completed_at')})`,
  from: 'o',
})

/**
 * The order, all its lines, its first history row and (optionally) its event in one statement: order creation is the hot path, and each
 * round trip inside its transaction holds the stock rows' locks longer.
 */
export async function insertOrder(
  q: Queryable,
  orgId: string,
  { order: o, lines, history, event }: OrderInsert,
): Promise<{ order: OrderRow; lines: LineRow[] }> {
  const col = <T>(f: (l: NewLine, i: number) => T) => lines.map(f)
  const result = await q.prepared<OrderRow>(
    event ? 'order_insert_event' : 'order_insert',
    `WITH o AS (
       INSERT INTO orders (id, org_id, location_id, customer_id, layby_id, status, currency, prices_include_tax, subtotal, discount_total,
         tax_total, total, captured_total, discount, note, sold_by, register_id, shift_id, number, completed_at, tip_amount,
         client_sale_id, sold_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $34, $35, $36, COALESCE($37::bigint, order_number_next($2)),
         CASE WHEN $6 = 'completed' THEN COALESCE($41::timestamptz, now()) END, $39, $40, $41)
       RETURNING ${orderColumns}
     ), l AS (
       INSERT INTO order_lines (id, org_id, order_id, position, product_id, variant_id, name, quantity, base_price, unit_price, modifiers,
         note, tax_rate_e4, line_subtotal, line_discount, line_tax, line_total, tracked)
       SELECT t.id, $2, o.id, t.position, t.product_id, t.variant_id, t.name, t.quantity, t.base_price, t.unit_price, t.modifiers, t.note,
         t.tax_rate_e4, t.line_subtotal, t.line_discount, t.line_tax, t.line_total, t.tracked
       FROM o, unnest($16::text[], $17::int[], $18::text[], $19::text[], $20::text[], $21::int[], $22::bigint[], $23::bigint[],
         $24::jsonb[], $25::text[], $26::int[], $27::bigint[], $28::bigint[], $29::bigint[], $30::bigint[], $38::boolean[])
         AS t(id, position, product_id, variant_id, name, quantity, base_price, unit_price, modifiers, note, tax_rate_e4, line_subtotal,
           line_discount, line_tax, line_total, tracked)
     ), h AS (
       INSERT INTO order_status_history (id, org_id, order_id, from_status, to_status, reason, actor)
       SELECT $31, $2, o.id, NULL, o.status, $32, $33 FROM o
     )${event ? `, e AS (${eventSql})` : ''}
     SELECT * FROM o`,
    [
      o.id,
      orgId,
      o.locationId,
      o.customerId,
      o.laybyId,
      o.status,
      o.currency,
      o.pricesIncludeTax,
      o.subtotal.toString(),
      o.discountTotal.toString(),
      o.taxTotal.toString(),
      o.total.toString(),
      o.capturedTotal.toString(),
      o.discount === null ? null : JSON.stringify(o.discount),
      o.note,
      col((l) => l.id),
      col((_, i) => i),
      col((l) => l.productId),
      col((l) => l.variantId),
      col((l) => l.name),
      col((l) => l.quantity),
      col((l) => l.basePrice.toString()),
      col((l) => l.unitPrice.toString()),
      col((l) => JSON.stringify(l.modifiers)),
      col((l) => l.note),
      col((l) => l.taxRateE4),
      col((l) => l.lineSubtotal.toString()),
      col((l) => l.lineDiscount.toString()),
      col((l) => l.lineTax.toString()),
      col((l) => l.lineTotal.toString()),
      history.id,
      history.reason,
      history.actor,
      o.soldBy,
      o.registerId,
      o.shiftId,
      o.number,
      col((l) => l.tracked),
      o.tipAmount.toString(),
      o.clientSaleId ?? null,
      o.soldAt ?? null,
      ...(event ? [event.id, event.type, JSON.stringify(event.data)] : []),
    ],
  )
  // The lines are exactly what was written, so they are not read back.
  return { order: result.rows[0], lines: writtenLines(o.id, lines) }
}

/** The rows `lines` become once inserted for order `orderId` (no SQL: the insert does not read them back). */
export function writtenLines(orderId: string, lines: readonly NewLine[]): LineRow[] {
  return lines.map((l, i) => ({
    id: l.id,
    order_id: orderId,
    position: i,
    product_id: l.productId,
    variant_id: l.variantId,
    name: l.name,
    quantity: l.quantity,
    base_price: l.basePrice.toString(),
    unit_price: l.unitPrice.toString(),
    modifiers: l.modifiers,
    note: l.note,
    tax_rate_e4: l.taxRateE4,
    line_subtotal: l.lineSubtotal.toString(),
    line_discount: l.lineDiscount.toString(),
    line_tax: l.lineTax.toString(),
    line_total: l.lineTotal.toString(),
    refunded_quantity: 0,
    refunded_amount: '0',
    tracked: l.tracked,
  }))
}

/**
 * Takes up to `count` more numbers from the org's sequence for a till's offline sales, so that it holds at most
 * `count` unused ones; answers all it holds unused, in order.
 */
export async function reserveTillNumbers(q: Queryable, orgId: string, deviceId: string, count: number) {
  await q.query(
    `INSERT INTO till_numbers (org_id, number, device_id)
     SELECT $1, order_number_next($1), $2
     FROM generate_series(1, GREATEST(0, $3 - (SELECT count(*) FROM till_numbers
       WHERE org_id = $1 AND device_id = $2 AND used_at IS NULL)))`,
    [orgId, deviceId, count],
  )
  const result = await q.query<{ number: string }>(
    'SELECT number FROM till_numbers WHERE org_id = $1 AND device_id = $2 AND used_at IS NULL ORDER BY number',
    [orgId, deviceId],
  )
  return result.rows.map((r) => Number(r.number))
}

/** Marks a number of the till's used by one of its sales; false when the till holds no such unused number. */
export async function claimTillNumber(q: Queryable, orgId: string, deviceId: string, number: number) {
  const result = await q.query(
    'UPDATE till_numbers SET used_at = now() WHERE org_id = $1 AND number = $2 AND device_id = $3 AND used_at IS NULL',
    [orgId, number, deviceId],
  )
  return (result.rowCount ?? 0) > 0
}

/** The orders some of these offline sales became already: their ids and numbers, by the till's ids. */
export async function recordedSales(q: Queryable, orgId: string, clientSaleIds: readonly string[]) {
  const result = await q.query<{ id: string; number: string; client_sale_id: string }>(
    'SELECT id, number, client_sale_id FROM orders WHERE org_id = $1 AND client_sale_id = ANY($2)',
    [orgId, clientSaleIds],
  )
  return result.rows
}

export async function insertHistory(
  q: Queryable,
  orgId: string,
  h: {
    id: string
    orderId: string
    from: string | null
    to: string
    reason: string
    actor: string
    approvedBy: string | null
    registerId: string | null
  },
): Promise<void> {
  await q.prepared(
    'order_history_insert',
    `INSERT INTO order_status_history (id, org_id, order_id, from_status, to_status, reason, actor, approved_by,
       register_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [h.id, orgId, h.orderId, h.from, h.to, h.reason, h.actor, h.approvedBy, h.registerId],
  )
}

export async function orderById(q: Queryable, orgId: string, id: string, lock = false): Promise<OrderRow | undefined> {
  const result = await q.prepared<OrderRow>(
    lock ? 'order_by_id_lock' : 'order_by_id',
    `SELECT ${orderColumns} FROM orders WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function linesOf(
  q: Queryable,
  orgId: string,
  orderIds: readonly string[],
  lock = false,
): Promise<LineRow[]> {
  const result = await q.query<LineRow>(
    `SELECT ${lineColumns} FROM order_lines WHERE org_id = $1 AND order_id = ANY($2) ORDER BY order_id, position${lock ? ' FOR UPDATE' : ''}`,
    [orgId, orderIds],
  )
  return result.rows
}

export async function historyOf(q: Queryable, orgId: string, orderId: string): Promise<HistoryRow[]> {
  const result = await q.query<HistoryRow>(
    `SELECT ${historyColumns} FROM order_status_history WHERE org_id = $1 AND order_id = $2 ORDER BY id`,
    [orgId, orderId],
  )
  return result.rows
}

export async function refundsOf(q: Queryable, orgId: string, orderId: string): Promise<RefundRow[]> {
  const result = await q.query<RefundRow>(
    `SELECT ${refundColumns} FROM refunds WHERE org_id = $1 AND order_id = $2 ORDER BY id`,
    [orgId, orderId],
  )
  return result.rows
}

interface OrderFilter {
  afterId: string | null
  status: string | null
  createdFrom: Date | null
  createdTo: Date | null
  locationId: string | null
  customerId: string | null
  registerId: string | null
  number: number | null
  order: 'oldest' | 'newest' | undefined
  limit: number
}

export async function listOrders(q: Queryable, orgId: string, f: OrderFilter): Promise<OrderRow[]> {
  const { after, sort } = listDirection(f.order)
  const name = f.order === 'newest' ? 'orders_list_newest' : 'orders_list'
  const result = await q.prepared<OrderRow>(
    name,
    `SELECT ${orderColumns} FROM orders
     WHERE org_id = $1 AND ($2::text IS NULL OR id ${after} $2) AND ($3::text IS NULL OR status = $3)
       AND ($4::timestamptz IS NULL OR created_at >= $4) AND ($5::timestamptz IS NULL OR created_at < $5)
       AND ($6::text IS NULL OR location_id = $6) AND ($7::text IS NULL OR customer_id = $7)
       AND ($9::bigint IS NULL OR number = $9)
       AND ($10::text IS NULL OR register_id = $10
         OR shift_id IN (SELECT id FROM shifts WHERE org_id = $1 AND register_id = $10))
     ORDER BY id ${sort} LIMIT $8`,
    [
      orgId,
      f.afterId,
      f.status,
      f.createdFrom,
      f.createdTo,
      f.locationId,
      f.customerId,
      f.limit,
      f.number,
      f.registerId,
    ],
  )
  return result.rows
}

export async function setStatus(q: Queryable, orgId: string, id: string, status: OrderStatus): Promise<OrderRow> {
  const result = await q.prepared<OrderRow>(
    'order_set_status',
    `UPDATE orders SET status = $3, version = version + 1, updated_at = now(),
       completed_at = CASE WHEN $3 = 'completed' THEN COALESCE(sold_at, now()) ELSE completed_at END
     WHERE org_id = $1 AND id = $2 RETURNING ${orderColumns}`,
    [orgId, id, status],
  )
  return result.rows[0]
}

export async function setLoyaltyPoints(q: Queryable, orgId: string, id: string, points: number): Promise<OrderRow> {
  const result = await q.query<OrderRow>(
    `UPDATE orders SET loyalty_points_earned = $3 WHERE org_id = $1 AND id = $2 RETURNING ${orderColumns}`,
    [orgId, id, points],
  )
  return result.rows[0]
}

/** An open order's new totals after a discount was added (a loyalty reward): the order and each line. */
export async function setTotals(
  q: Queryable,
  orgId: string,
  id: string,
  o: { subtotal: bigint; discountTotal: bigint; taxTotal: bigint; total: bigint; discount: unknown },
  lines: readonly { id: string; lineDiscount: bigint; lineTax: bigint; lineTotal: bigint }[],
): Promise<OrderRow> {
  await q.query(
    `UPDATE order_lines l SET line_discount = t.discount, line_tax = t.tax, line_total = t.total
     FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[]) AS t(id, discount, tax, total)
     WHERE l.org_id = $1 AND l.id = t.id`,
    [
      orgId,
      lines.map((l) => l.id),
      lines.map((l) => l.lineDiscount.toString()),
      lines.map((l) => l.lineTax.toString()),
      lines.map((l) => l.lineTotal.toString()),
    ],
  )
  const result = await q.query<OrderRow>(
    // The tip stays what it was, on top of the new total.
    `UPDATE orders SET subtotal = $3, discount_total = $4, tax_total = $5, total = $6 + tip_amount, discount = $7,
       version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${orderColumns}`,
    [
      orgId,
      id,
      o.subtotal.toString(),
      o.discountTotal.toString(),
      o.taxTotal.toString(),
      o.total.toString(),
      JSON.stringify(o.discount),
    ],
  )
  return result.rows[0]
}

export async function addCaptured(q: Queryable, orgId: string, id: string, amount: bigint): Promise<OrderRow> {
  const result = await q.prepared<OrderRow>(
    'order_add_captured',
    `UPDATE orders SET captured_total = captured_total + $3, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${orderColumns}`,
    [orgId, id, amount.toString()],
  )
  return result.rows[0]
}

/**
 * Moves `amount` in or out of refunded_total, `tip` of it in or out of tip_refunded; the table's CHECKs keep them
 * within captured_total and the tip.
 */
export async function addRefunded(q: Queryable, orgId: string, id: string, amount: bigint, tip: bigint): Promise<void> {
  await q.query(
    `UPDATE orders SET refunded_total = refunded_total + $3, tip_refunded = tip_refunded + $4, version = version + 1,
       updated_at = now()
     WHERE org_id = $1 AND id = $2`,
    [orgId, id, amount.toString(), tip.toString()],
  )
}

/** Adds `delta` (signed) to the order's tip and its total. */
export async function addTip(q: Queryable, orgId: string, id: string, delta: bigint): Promise<OrderRow> {
  const result = await q.query<OrderRow>(
    `UPDATE orders SET tip_amount = tip_amount + $3, total = total + $3, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${orderColumns}`,
    [orgId, id, delta.toString()],
  )
  return result.rows[0]
}

export async function addLineRefund(
  q: Queryable,
  orgId: string,
  lineId: string,
  quantity: number,
  amount: bigint,
): Promise<void> {
  await q.query(
    'UPDATE order_lines SET refunded_quantity = refunded_quantity + $3, refunded_amount = refunded_amount + $4 WHERE org_id = $1 AND id = $2',
    [orgId, lineId, quantity, amount.toString()],
  )
}

export async function insertRefund(
  q: Queryable,
  orgId: string,
  r: {
    id: string
    orderId: string
    amount: bigint
    reason: string
    restock: boolean
    lines: unknown[]
    approvedBy: string | null
    refundedBy: string | null
    registerId: string | null
    /** What of `amount` is the tip. */
    tipAmount: bigint
  },
): Promise<void> {
  await q.query(
    `INSERT INTO refunds (id, org_id, order_id, amount, reason, restock, lines, status, approved_by, refunded_by,
       register_id, tip_amount)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $11)`,
    [
      r.id,
      orgId,
      r.orderId,
      r.amount.toString(),
      r.reason,
      r.restock,
      JSON.stringify(r.lines),
      r.approvedBy,
      r.refundedBy,
      r.registerId,
      r.tipAmount.toString(),
    ],
  )
}

export async function refundById(q: Queryable, orgId: string, id: string, lock = false) {
  const result = await q.query<RefundRow>(
    `SELECT ${refundColumns} FROM refunds WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function finishRefund(
  q: Queryable,
  orgId: string,
  id: string,
  status: 'succeeded' | 'failed',
  reason: string | null,
): Promise<RefundRow> {
  const result = await q.query<RefundRow>(
    `UPDATE refunds SET status = $3, failure_reason = $4 WHERE org_id = $1 AND id = $2 RETURNING ${refundColumns}`,
    [orgId, id, status, reason],
  )
  return result.rows[0]
}

export async function purchaseSummary(q: Queryable, orgId: string, customerId: string) {
  const result = await q.query<{
    count: string
    spent: string | null
    refunded: string | null
    first: Date | null
    last: Date | null
  }>(
    `SELECT count(*) AS count, sum(captured_total) AS spent, sum(refunded_total) AS refunded, min(created_at) AS first, max(created_at) AS last
     FROM orders WHERE org_id = $1 AND customer_id = $2 AND status <> 'voided'`,
    [orgId, customerId],
  )
  return result.rows[0]
}
