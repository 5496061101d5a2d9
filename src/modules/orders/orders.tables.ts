import type { OrderStatus } from './orders.schemas.ts'

/** Row types and column lists of the order tables, once each. */

/** orders (db/migrations/0042_orders.sql). */
export interface OrderRow {
  id: string
  /** The order's number in its org (db/migrations/0145_order_numbers.sql), as pg reads a bigint. */
  number: string
  org_id: string
  location_id: string
  customer_id: string | null
  layby_id: string | null
  status: OrderStatus
  currency: string
  prices_include_tax: boolean
  subtotal: string
  discount_total: string
  tax_total: string
  total: string
  captured_total: string
  refunded_total: string
  discount: unknown
  note: string
  loyalty_points_earned: number
  /** The user who made the sale and the till's register (db/migrations/0141); null for orders made before. */
  sold_by: string | null
  register_id: string | null
  shift_id: string | null
  /** The tip in the total and what refunds returned of it (db/migrations/0146). */
  tip_amount: string
  tip_refunded: string
  /** A sale a till made offline: the till's id for it and when it was sold (db/migrations/0149). */
  client_sale_id: string | null
  sold_at: Date | null
  version: number
  created_at: Date
  updated_at: Date
  completed_at: Date | null
}

export const orderColumns =
  'id, number, org_id, location_id, customer_id, layby_id, status, currency, prices_include_tax, subtotal, discount_total, tax_total, total, captured_total, refunded_total, discount, note, loyalty_points_earned, sold_by, register_id, shift_id, tip_amount, tip_refunded, client_sale_id, sold_at, version, created_at, updated_at, completed_at'

/** order_lines (db/migrations/0042_orders.sql). */
export interface LineRow {
  id: string
  order_id: string
  position: number
  product_id: string
  variant_id: string | null
  name: string
  quantity: number
  base_price: string
  unit_price: string
  modifiers: { id: string; group_id: string; name: string; price_adjustment: string }[]
  note: string
  tax_rate_e4: number
  line_subtotal: string
  line_discount: string
  line_tax: string
  line_total: string
  refunded_quantity: number
  refunded_amount: string
  /** Whether the sale drew stock (db/migrations/0146): a void or a restock gives back only what was taken. */
  tracked: boolean
}

export const lineColumns =
  'id, order_id, position, product_id, variant_id, name, quantity, base_price, unit_price, modifiers, note, tax_rate_e4, line_subtotal, line_discount, line_tax, line_total, refunded_quantity, refunded_amount, tracked'

/** order_status_history (db/migrations/0042_orders.sql). */
export interface HistoryRow {
  id: string
  from_status: OrderStatus | null
  to_status: OrderStatus
  reason: string
  actor: string
  approved_by: string | null
  created_at: Date
}

export const historyColumns = 'id, from_status, to_status, reason, actor, approved_by, created_at'

/** refunds (db/migrations/0042_orders.sql). */
export interface RefundRow {
  id: string
  order_id: string
  amount: string
  reason: string
  restock: boolean
  lines: { line_id: string; quantity: number; amount: string }[]
  status: 'pending' | 'succeeded' | 'failed'
  failure_reason: string | null
  approved_by: string | null
  /** What of `amount` is the order's tip (db/migrations/0146). */
  tip_amount: string
  created_at: Date
}

export const refundColumns =
  'id, order_id, amount, reason, restock, lines, status, failure_reason, approved_by, tip_amount, created_at'
