/** Row types and column lists of the register and shift tables, once each. */

/** registers (db/migrations/0031_registers_shifts.sql), with the id of its open shift if any. */
export interface RegisterRow {
  id: string
  location_id: string
  name: string
  open_shift_id: string | null
  version: number
  created_at: Date
  updated_at: Date
}

/** Selected FROM registers r. */
export const registerColumns = `r.id, r.location_id, r.name, r.version, r.created_at, r.updated_at,
  (SELECT s.id FROM shifts s WHERE s.org_id = r.org_id AND s.register_id = r.id AND s.status = 'open') AS open_shift_id`

/** shifts (db/migrations/0031_registers_shifts.sql); amounts are bigint minor units, as text. */
export interface ShiftRow {
  id: string
  register_id: string
  location_id: string
  status: 'open' | 'closed'
  opening_float: string
  cash_in: string
  cash_out: string
  cash_sales: string
  cash_refunds: string
  /** Cash of sales made offline that reached the server after the shift closed (db/migrations/0149). */
  late_cash_sales: string
  expected_amount: string
  counted_amount: string | null
  variance: string | null
  opened_by: string | null
  closed_by: string | null
  opened_at: Date
  closed_at: Date | null
  version: number
}

/** The cash a drawer should hold: the float plus cash in, less cash out, plus cash sales, less cash refunds. */
export const EXPECTED = 'opening_float + cash_in - cash_out + cash_sales - cash_refunds'

export const shiftColumns = `id, register_id, location_id, status, opening_float, cash_in, cash_out, cash_sales, cash_refunds,
  late_cash_sales, COALESCE(expected_amount, ${EXPECTED}) AS expected_amount, counted_amount, variance, opened_by, closed_by, opened_at,
  closed_at, version`

/** shift_cash_movements (db/migrations/0031_registers_shifts.sql). */
export interface CashMovementRow {
  id: string
  shift_id: string
  kind: 'in' | 'out' | 'sale' | 'refund'
  amount: string
  reason: string
  reference_type: string | null
  reference_id: string | null
  actor_user_id: string | null
  actor_client_id: string
  created_at: Date
}

export const cashColumns =
  'id, shift_id, kind, amount, reason, reference_type, reference_id, actor_user_id, actor_client_id, created_at'
