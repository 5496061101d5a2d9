import type { Static } from 'typebox'
import type { Dated } from '../../platform/http/schemas.ts'
import { toMajor } from '../../platform/money/money.ts'
import { e4ToPercent } from '../../platform/money/percent.ts'
import type { OrderPayment, OrderSchema } from './orders.schemas.ts'
import type { HistoryRow, LineRow, OrderRow, RefundRow } from './orders.tables.ts'

/**
 * A stored order discount: one the till asked for (what it asked and what it came to), or one campaign rule that
 * applied, with what it took off each line.
 */
export type StoredDiscount =
  | { type: 'amount' | 'percentage'; value: number; reason: string; amount: string; approved_by?: string }
  | {
      type: 'campaign'
      campaign_id: string
      rule_id: string
      rule_type: string
      name: string
      voucher_code: string | null
      amount: string
      lines: { line_id: string; amount: string }[]
      /** A points_multiplier rule: what it multiplies the order's loyalty points by (× 10,000). */
      points_multiplier_e4?: string
    }

/** A stored campaign discount but its lines: all an order's or a calculation's `discounts` show of it. */
export type CampaignDiscountFields = Omit<Extract<StoredDiscount, { type: 'campaign' }>, 'lines'>

export function discountView(
  d: Exclude<StoredDiscount, { type: 'campaign' }> | CampaignDiscountFields,
  currency: string,
) {
  const amount = toMajor(d.amount, currency)
  return d.type === 'campaign'
    ? {
        type: d.type,
        value: amount,
        reason: d.name,
        amount,
        campaign_id: d.campaign_id,
        rule_id: d.rule_id,
        rule_type: d.rule_type,
        voucher_code: d.voucher_code,
        ...(d.points_multiplier_e4 ? { points_multiplier: Number(d.points_multiplier_e4) / 10_000 } : {}),
      }
    : {
        type: d.type,
        value: d.value,
        reason: d.reason,
        amount,
        ...(d.approved_by ? { approved_by: d.approved_by } : {}),
      }
}

export function lineDiscountView(
  campaignId: string,
  ruleId: string,
  name: string,
  amount: bigint | string,
  currency: string,
) {
  return { campaign_id: campaignId, rule_id: ruleId, name, amount: toMajor(amount, currency) }
}

function toLine(row: LineRow, currency: string, discounts: readonly StoredDiscount[] = []) {
  return {
    id: row.id,
    product_id: row.product_id,
    variant_id: row.variant_id,
    name: row.name,
    quantity: row.quantity,
    base_price: toMajor(row.base_price, currency),
    unit_price: toMajor(row.unit_price, currency),
    modifiers: row.modifiers.map((m) => ({
      id: m.id,
      group_id: m.group_id,
      name: m.name,
      price_adjustment: toMajor(m.price_adjustment, currency),
    })),
    note: row.note,
    tax_rate: e4ToPercent(row.tax_rate_e4),
    line_subtotal: toMajor(row.line_subtotal, currency),
    line_discount: toMajor(row.line_discount, currency),
    line_tax: toMajor(row.line_tax, currency),
    line_total: toMajor(row.line_total, currency),
    discounts: discounts.flatMap((d) => {
      if (d.type !== 'campaign') return []
      const mine = d.lines.find((l) => l.line_id === row.id)
      return mine ? [lineDiscountView(d.campaign_id, d.rule_id, d.name, mine.amount, currency)] : []
    }),
    refunded_quantity: row.refunded_quantity,
    refunded_amount: toMajor(row.refunded_amount, currency),
  }
}

function toRefund(row: RefundRow, currency: string) {
  return {
    id: row.id,
    order_id: row.order_id,
    amount: toMajor(row.amount, currency),
    reason: row.reason,
    restock: row.restock,
    status: row.status,
    failure_reason: row.failure_reason,
    lines: row.lines.map((l) => ({ line_id: l.line_id, quantity: l.quantity, amount: toMajor(l.amount, currency) })),
    approved_by: row.approved_by,
    tip: toMajor(row.tip_amount, currency),
    created_at: row.created_at,
  }
}

function toHistory(row: HistoryRow) {
  return {
    from_status: row.from_status,
    to_status: row.to_status,
    reason: row.reason,
    actor: row.actor,
    approved_by: row.approved_by,
    created_at: row.created_at.toISOString(),
  }
}

/** The order as the API shows it; its own timestamps stay Dates until the serializer writes them. */
export type Order = Omit<
  Dated<Static<typeof OrderSchema>, 'created_at' | 'updated_at' | 'completed_at' | 'sold_at'>,
  'payments'
> & {
  payments?: OrderPayment[]
}

export function toOrder(
  row: OrderRow,
  lines: LineRow[],
  extra: { payments?: OrderPayment[]; refunds?: RefundRow[]; history?: HistoryRow[] } = {},
): Order {
  const c = row.currency
  const net = BigInt(row.captured_total) - BigInt(row.refunded_total)
  const due = BigInt(row.total) - BigInt(row.captured_total)
  const discounts = (row.discount as StoredDiscount[] | null) ?? []
  return {
    id: row.id,
    number: Number(row.number),
    status: row.status,
    location_id: row.location_id,
    customer_id: row.customer_id,
    layby_id: row.layby_id,
    currency: c,
    prices_include_tax: row.prices_include_tax,
    lines: lines.map((l) => toLine(l, c, discounts)),
    discounts: discounts.map((d) => discountView(d, c)),
    subtotal: toMajor(row.subtotal, c),
    discount_total: toMajor(row.discount_total, c),
    tax_total: toMajor(row.tax_total, c),
    tip: toMajor(row.tip_amount, c),
    tip_refunded: toMajor(row.tip_refunded, c),
    total: toMajor(row.total, c),
    amount_captured: toMajor(row.captured_total, c),
    amount_refunded: toMajor(row.refunded_total, c),
    amount_paid: toMajor(net, c),
    balance_due: toMajor(due > 0n ? due : 0n, c),
    note: row.note,
    loyalty_points_earned: row.loyalty_points_earned,
    sold_by: row.sold_by,
    register_id: row.register_id,
    shift_id: row.shift_id,
    client_sale_id: row.client_sale_id,
    sold_at: row.sold_at,
    ...(extra.payments ? { payments: extra.payments } : {}),
    ...(extra.refunds ? { refunds: extra.refunds.map((r) => toRefund(r, c)) } : {}),
    ...(extra.history ? { status_history: extra.history.map(toHistory) } : {}),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  }
}

/** The campaigns' points multipliers of an order, multiplied together (× 10,000; 10000 when none). */
export function pointsMultiplierE4(discount: unknown): bigint {
  return ((discount as StoredDiscount[] | null) ?? []).reduce(
    (m, d) => (d.type === 'campaign' && d.points_multiplier_e4 ? (m * BigInt(d.points_multiplier_e4)) / 10_000n : m),
    10_000n,
  )
}
