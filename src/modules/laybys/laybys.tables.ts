import type { LaybyStatus } from './laybys.schemas.ts'

/** Row type and column list of laybys (db/migrations/0043_payments.sql, 0129_layby_cancellations_stalled.sql). */

export interface LaybyRow {
  id: string
  customer_id: string
  location_id: string
  status: LaybyStatus
  currency: string
  /** The priced order as agreed (laybys.service.ts freeze/thaw). */
  lines: unknown
  subtotal: string
  discount_total: string
  tax_total: string
  total: string
  paid_total: string
  order_id: string | null
  note: string
  version: number
  created_at: Date
  updated_at: Date
}

export const laybyColumns =
  'id, customer_id, location_id, status, currency, lines, subtotal, discount_total, tax_total, total, paid_total, order_id, note, version, created_at, updated_at'
