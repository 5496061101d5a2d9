import type { Queryable } from '../../platform/db/database.ts'
import { type MethodSettingsRow, type PaymentRow, type PaymentStatus, paymentColumns } from './payments.tables.ts'

export interface NewPayment {
  id: string
  orderId: string | null
  laybyId: string | null
  method: string
  amount: bigint
  currency: string
  status: PaymentStatus
  processor: string | null
  processorRef: string | null
  giftCardId: string | null
  shiftId: string | null
  failureCode: string | null
  failureMessage: string | null
  tipAmount: bigint
  cashTendered: bigint | null
  /** When it was taken, if not now (a till's offline sale). */
  capturedAt?: Date | null
  /** A card taken offline: the adapter's token, sealed, and when it was taken. */
  offlineTokenSealed?: string | null
  takenAt?: Date | null
}

export async function insertPayment(q: Queryable, orgId: string, p: NewPayment): Promise<PaymentRow> {
  const result = await q.prepared<PaymentRow>(
    'payment_insert',
    `INSERT INTO payments (id, org_id, order_id, layby_id, method, amount, currency, status, processor, processor_ref, gift_card_id, shift_id,
       failure_code, failure_message, captured_at, tip_amount, cash_tendered, offline_token_sealed, taken_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
       CASE WHEN $8 = 'captured' THEN COALESCE($17::timestamptz, now()) END, $15, $16, $18, $19)
     RETURNING ${paymentColumns}`,
    [
      p.id,
      orgId,
      p.orderId,
      p.laybyId,
      p.method,
      p.amount.toString(),
      p.currency,
      p.status,
      p.processor,
      p.processorRef,
      p.giftCardId,
      p.shiftId,
      p.failureCode,
      p.failureMessage,
      p.tipAmount.toString(),
      p.cashTendered?.toString() ?? null,
      p.capturedAt ?? null,
      p.offlineTokenSealed ?? null,
      p.takenAt ?? null,
    ],
  )
  return result.rows[0]
}

export async function paymentById(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
): Promise<PaymentRow | undefined> {
  const result = await q.query<PaymentRow>(
    `SELECT ${paymentColumns} FROM payments WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function paymentsOf(
  q: Queryable,
  orgId: string,
  target: { orderId?: string; laybyId?: string },
): Promise<PaymentRow[]> {
  const result = await q.query<PaymentRow>(
    `SELECT ${paymentColumns} FROM payments WHERE org_id = $1 AND (order_id = $2 OR layby_id = $3) ORDER BY id`,
    [orgId, target.orderId ?? null, target.laybyId ?? null],
  )
  return result.rows
}

/** Money held by uncaptured intents: it counts against the balance until captured or voided. */
export async function pendingTotal(q: Queryable, orgId: string, orderId: string): Promise<bigint> {
  const result = await q.prepared<{ sum: string | null }>(
    'payments_pending_total',
    "SELECT sum(amount) AS sum FROM payments WHERE org_id = $1 AND order_id = $2 AND status = 'requires_capture'",
    [orgId, orderId],
  )
  return BigInt(result.rows[0].sum ?? 0)
}

/**
 * Moves a payment from one status to another; undefined when it was not in `from` any more (a race lost), or when
 * `amount` is given and the payment's is not that any more (a tip adjusted meanwhile: not what was captured).
 */
export async function transition(
  q: Queryable,
  orgId: string,
  id: string,
  from: PaymentStatus,
  to: PaymentStatus,
  amount?: bigint,
): Promise<PaymentRow | undefined> {
  const result = await q.query<PaymentRow>(
    `UPDATE payments SET status = $4, version = version + 1, updated_at = now(),
       captured_at = CASE WHEN $4 = 'captured' THEN now() ELSE captured_at END
     WHERE org_id = $1 AND id = $2 AND status = $3 AND ($5::bigint IS NULL OR amount = $5) RETURNING ${paymentColumns}`,
    [orgId, id, from, to, amount?.toString() ?? null],
  )
  return result.rows[0]
}

/** A new tip on an uncaptured payment, its amount moved with it; undefined when it was captured or changed meanwhile. */
export async function adjustTip(
  q: Queryable,
  orgId: string,
  id: string,
  version: number,
  tip: bigint,
): Promise<PaymentRow | undefined> {
  const result = await q.query<PaymentRow>(
    `UPDATE payments SET amount = amount - tip_amount + $4, tip_amount = $4, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND status = 'requires_capture' AND version = $3 RETURNING ${paymentColumns}`,
    [orgId, id, version, tip.toString()],
  )
  return result.rows[0]
}

/** A card a till took offline, pending: what authorizing it needs. */
export async function pendingCard(q: Queryable, orgId: string, id: string) {
  const result = await q.query<PaymentRow & { offline_token_sealed: string; taken_at: Date }>(
    `SELECT ${paymentColumns}, offline_token_sealed, taken_at FROM payments
     WHERE org_id = $1 AND id = $2 AND status = 'pending'`,
    [orgId, id],
  )
  return result.rows[0]
}

/** Records a card taken offline once its authorization is known: captured, or failed with why. */
export async function settlePending(
  q: Queryable,
  orgId: string,
  id: string,
  outcome: { status: 'captured'; processorRef: string } | { status: 'failed'; code: string; message: string },
): Promise<PaymentRow | undefined> {
  const result = await q.query<PaymentRow>(
    `UPDATE payments SET status = $3, processor_ref = $4, failure_code = $5, failure_message = $6,
       captured_at = CASE WHEN $3 = 'captured' THEN now() END, offline_token_sealed = NULL, claimed_until = NULL,
       version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND status = 'pending' RETURNING ${paymentColumns}`,
    [
      orgId,
      id,
      outcome.status,
      outcome.status === 'captured' ? outcome.processorRef : null,
      outcome.status === 'failed' ? outcome.code : null,
      outcome.status === 'failed' ? outcome.message : null,
    ],
  )
  return result.rows[0]
}

/** Pending cards of any org, each leased to this worker (payments_claim_pending, db/migrations/0151). */
export async function claimPendingCards(q: Queryable, olderThanS: number, leaseS: number, batch: number) {
  const result = await q.query<{ org_id: string; payment_id: string }>(
    'SELECT org_id, payment_id FROM payments_claim_pending(make_interval(secs => $1), make_interval(secs => $2), $3)',
    [olderThanS, leaseS, batch],
  )
  return result.rows
}

/** The captured payments of an order, locked, with what each has left to refund. */
export async function refundablePayments(q: Queryable, orgId: string, orderId: string): Promise<PaymentRow[]> {
  const result = await q.query<PaymentRow>(
    `SELECT ${paymentColumns} FROM payments
     WHERE org_id = $1 AND order_id = $2 AND status IN ('captured', 'partially_refunded') AND refunded_amount < amount
     ORDER BY id FOR UPDATE`,
    [orgId, orderId],
  )
  return result.rows
}

export async function addRefunded(q: Queryable, orgId: string, id: string, amount: bigint): Promise<PaymentRow> {
  const result = await q.query<PaymentRow>(
    `UPDATE payments SET refunded_amount = refunded_amount + $3, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${paymentColumns}`,
    [orgId, id, amount.toString()],
  )
  return result.rows[0]
}

/** After a settled refund: refunded when nothing is left, else partially_refunded. */
export async function settleRefundStatus(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query(
    `UPDATE payments SET status = CASE WHEN refunded_amount >= amount THEN 'refunded' ELSE 'partially_refunded' END,
       version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
}

export async function insertPaymentRefund(
  q: Queryable,
  orgId: string,
  r: { id: string; paymentId: string; refundId: string | null; amount: bigint },
) {
  await q.query('INSERT INTO payment_refunds (id, org_id, payment_id, refund_id, amount) VALUES ($1, $2, $3, $4, $5)', [
    r.id,
    orgId,
    r.paymentId,
    r.refundId,
    r.amount.toString(),
  ])
}

export async function setPaymentRefundRef(
  q: Queryable,
  orgId: string,
  refundId: string,
  paymentId: string,
  ref: string | null,
) {
  await q.query(
    'UPDATE payment_refunds SET processor_ref = $4 WHERE org_id = $1 AND refund_id = $2 AND payment_id = $3',
    [orgId, refundId, paymentId, ref],
  )
}

/** A refund's parts, in the order they were reserved. */
export async function partsOfRefund(q: Queryable, orgId: string, refundId: string) {
  const result = await q.query<{ payment_id: string; amount: string }>(
    'SELECT payment_id, amount FROM payment_refunds WHERE org_id = $1 AND refund_id = $2 ORDER BY id',
    [orgId, refundId],
  )
  return result.rows
}

export async function deletePaymentRefunds(q: Queryable, orgId: string, refundId: string) {
  await q.query('DELETE FROM payment_refunds WHERE org_id = $1 AND refund_id = $2', [orgId, refundId])
}

/** A completed lay-by's payments become its order's. */
export async function attachLaybyPayments(q: Queryable, orgId: string, laybyId: string, orderId: string) {
  await q.query('UPDATE payments SET order_id = $3, updated_at = now() WHERE org_id = $1 AND layby_id = $2', [
    orgId,
    laybyId,
    orderId,
  ])
}

export async function methodSettings(q: Queryable, orgId: string): Promise<MethodSettingsRow | undefined> {
  const result = await q.prepared<MethodSettingsRow>(
    'payment_methods_of',
    'SELECT methods, version FROM payment_method_settings WHERE org_id = $1',
    [orgId],
  )
  return result.rows[0]
}

export async function saveMethodSettings(
  q: Queryable,
  orgId: string,
  methods: string[],
  expectedVersion: number | undefined,
): Promise<MethodSettingsRow | undefined> {
  const result = await q.query<MethodSettingsRow>(
    // The defaults an org starts with count as version 1, so the first saved choice is version 2.
    `INSERT INTO payment_method_settings (org_id, methods, version) VALUES ($1, $2, 2)
     ON CONFLICT (org_id) DO UPDATE SET methods = EXCLUDED.methods, version = payment_method_settings.version + 1, updated_at = now()
       WHERE $3::int IS NULL OR payment_method_settings.version = $3
     RETURNING methods, version`,
    [orgId, methods, expectedVersion ?? null],
  )
  return result.rows[0]
}

/** The refunds reserved for a lay-by's cancellation and not yet settled (payment_refunds without a refund). */
export async function laybyRefundParts(
  q: Queryable,
  orgId: string,
  laybyId: string,
): Promise<{ payment_id: string; amount: string }[]> {
  const result = await q.query<{ payment_id: string; amount: string }>(
    `SELECT pr.payment_id, pr.amount FROM payment_refunds pr
     JOIN payments p ON p.org_id = pr.org_id AND p.id = pr.payment_id
     WHERE pr.org_id = $1 AND p.layby_id = $2 AND pr.refund_id IS NULL ORDER BY pr.payment_id`,
    [orgId, laybyId],
  )
  return result.rows
}

export async function deleteLaybyRefundParts(q: Queryable, orgId: string, laybyId: string): Promise<void> {
  await q.query(
    `DELETE FROM payment_refunds pr USING payments p
     WHERE pr.org_id = $1 AND p.org_id = pr.org_id AND p.id = pr.payment_id AND p.layby_id = $2 AND pr.refund_id IS NULL`,
    [orgId, laybyId],
  )
}
