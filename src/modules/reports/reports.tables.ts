/** Row types of the report aggregates (db/migrations/0115_reports.sql), as the repo's queries answer them. */

export interface SalesRow {
  key: string
  orders: string
  gross: string
  discounts: string
  tax: string
  total: string
  tips: string
  refunds: string
  refunded: string
  tips_refunded: string
}

export interface ProductSalesRow {
  product_id: string
  quantity: string
  gross: string
  discounts: string
  tax: string
  total: string
}

export interface PaymentsRow {
  key: string
  payments: string
  captured: string
  refunded: string
}

export interface RefundsRow {
  day: string
  refunds: string
  amount: string
  quantity: string
}

export interface TaxRow {
  tax_rate_e4: number
  taxable: string
  tax: string
}

/** report_staff_daily (db/migrations/0143_report_staff.sql), summed by user or register. */
export interface StaffRow {
  key: string
  orders: string
  discounts: string
  total: string
  tips: string
  refunds: string
  refunded: string
  voids: string
  voided: string
}
