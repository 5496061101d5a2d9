/** Row types and column lists of the payment tables, once each. */

export type PaymentStatus =
  | 'pending'
  | 'requires_capture'
  | 'captured'
  | 'voided'
  | 'failed'
  | 'partially_refunded'
  | 'refunded'

/** payments (db/migrations/0043_payments.sql). */
export interface PaymentRow {
  id: string
  order_id: string | null
  layby_id: string | null
  method: string
  amount: string
  currency: string
  status: PaymentStatus
  refunded_amount: string
  processor: string | null
  processor_ref: string | null
  gift_card_id: string | null
  shift_id: string | null
  failure_code: string | null
  failure_message: string | null
  /** The tip in `amount`, and the cash the customer handed over (db/migrations/0146). */
  tip_amount: string
  cash_tendered: string | null
  version: number
  created_at: Date
  updated_at: Date
  captured_at: Date | null
}

export const paymentColumns =
  'id, order_id, layby_id, method, amount, currency, status, refunded_amount, processor, processor_ref, gift_card_id, shift_id, failure_code, failure_message, tip_amount, cash_tendered, version, created_at, updated_at, captured_at'

/** payment_method_settings (db/migrations/0043_payments.sql), as read and saved. */
export interface MethodSettingsRow {
  methods: string[]
  version: number
}
