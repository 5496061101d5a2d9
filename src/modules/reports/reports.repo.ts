import type { Queryable } from '../../platform/db/database.ts'
import type { PaymentsRow, ProductSalesRow, RefundsRow, SalesRow, StaffRow, TaxRow } from './reports.tables.ts'

export interface Range {
  from: string
  to: string
  locationId: string | null
}

/** How a period or place is keyed; whitelisted here, never taken from input. */
const KEYS = {
  day: "to_char(day, 'YYYY-MM-DD')",
  week: "to_char(date_trunc('week', day)::date, 'YYYY-MM-DD')",
  month: "to_char(day, 'YYYY-MM')",
  location: 'location_id',
} as const
type SalesKey = keyof typeof KEYS

const within = 'org_id = $1 AND day BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR location_id = $4)'
const params = (orgId: string, r: Range) => [orgId, r.from, r.to, r.locationId]

/**
 * Sales and refunds by hour of the day in each location's time zone, summed over the period, read from the orders
 * and refunds themselves with the rollups' rules (a sale counts when completed, a refund when it succeeded). The
 * range is widened by a day each side for the index, then narrowed to the local days.
 */
export async function salesByHour(q: Queryable, orgId: string, r: Range): Promise<SalesRow[]> {
  // The widened bounds as instants whatever the session's time zone.
  const utc = (day: string) => `((${day})::timestamp AT TIME ZONE 'UTC')`
  const local = (at: string, location: string) =>
    `(${at} AT TIME ZONE COALESCE((SELECT timezone FROM locations l WHERE l.org_id = $1 AND l.id = ${location}), 'UTC'))`
  const result = await q.query<SalesRow>(
    `WITH s AS (
       SELECT to_char(${local('completed_at', 'location_id')}, 'HH24":00"') AS key, count(*) AS orders, sum(subtotal) AS gross,
         sum(discount_total) AS discounts, sum(tax_total) AS tax, sum(total) AS total, sum(tip_amount) AS tips
       FROM orders
       WHERE org_id = $1 AND completed_at >= ${utc('$2::date - 1')} AND completed_at < ${utc('$3::date + 2')}
         AND ${local('completed_at', 'location_id')}::date BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR location_id = $4)
       GROUP BY 1),
     f AS (
       SELECT to_char(${local('f.created_at', 'o.location_id')}, 'HH24":00"') AS key, count(*) AS refunds, sum(f.amount) AS refunded,
         sum(f.tip_amount) AS tips_refunded
       FROM refunds f JOIN orders o ON o.org_id = f.org_id AND o.id = f.order_id
       WHERE f.org_id = $1 AND f.status = 'succeeded' AND f.created_at >= ${utc('$2::date - 1')} AND f.created_at < ${utc('$3::date + 2')}
         AND ${local('f.created_at', 'o.location_id')}::date BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR o.location_id = $4)
       GROUP BY 1)
     SELECT key, COALESCE(s.orders, 0) AS orders, COALESCE(s.gross, 0) AS gross, COALESCE(s.discounts, 0) AS discounts,
       COALESCE(s.tax, 0) AS tax, COALESCE(s.total, 0) AS total, COALESCE(s.tips, 0) AS tips,
       COALESCE(f.refunds, 0) AS refunds, COALESCE(f.refunded, 0) AS refunded,
       COALESCE(f.tips_refunded, 0) AS tips_refunded
     FROM s FULL JOIN f USING (key) ORDER BY key`,
    params(orgId, r),
  )
  return result.rows
}

/** Sales and the refunds of the same periods (a refund counts on its own day). */
export async function sales(q: Queryable, orgId: string, r: Range, by: SalesKey): Promise<SalesRow[]> {
  const key = KEYS[by]
  const result = await q.query<SalesRow>(
    `WITH s AS (
       SELECT ${key} AS key, sum(orders) AS orders, sum(gross) AS gross, sum(discounts) AS discounts, sum(tax) AS tax,
         sum(total) AS total, sum(tips) AS tips
       FROM report_sales_daily WHERE ${within} GROUP BY 1),
     f AS (
       SELECT ${key} AS key, sum(refunds) AS refunds, sum(amount) AS refunded, sum(tips) AS tips_refunded
       FROM report_refunds_daily WHERE ${within} GROUP BY 1)
     SELECT key, COALESCE(s.orders, 0) AS orders, COALESCE(s.gross, 0) AS gross, COALESCE(s.discounts, 0) AS discounts,
       COALESCE(s.tax, 0) AS tax, COALESCE(s.total, 0) AS total, COALESCE(s.tips, 0) AS tips,
       COALESCE(f.refunds, 0) AS refunds, COALESCE(f.refunded, 0) AS refunded,
       COALESCE(f.tips_refunded, 0) AS tips_refunded
     FROM s FULL JOIN f USING (key) ORDER BY key`,
    params(orgId, r),
  )
  return result.rows
}

export async function productSales(q: Queryable, orgId: string, r: Range): Promise<ProductSalesRow[]> {
  const result = await q.query<ProductSalesRow>(
    `SELECT product_id, sum(quantity) AS quantity, sum(gross) AS gross, sum(discounts) AS discounts, sum(tax) AS tax,
       sum(total) AS total
     FROM report_product_daily WHERE ${within} GROUP BY product_id ORDER BY sum(total) DESC, product_id`,
    params(orgId, r),
  )
  return result.rows
}

export async function payments(q: Queryable, orgId: string, r: Range, by: 'method' | 'register_id') {
  const result = await q.query<PaymentsRow>(
    `SELECT ${by === 'method' ? 'method' : 'register_id'} AS key, sum(payments) AS payments, sum(captured) AS captured,
       sum(refunded) AS refunded
     FROM report_payments_daily WHERE ${within} GROUP BY 1 ORDER BY 1`,
    params(orgId, r),
  )
  return result.rows
}

export async function refunds(q: Queryable, orgId: string, r: Range): Promise<RefundsRow[]> {
  const result = await q.query<RefundsRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(refunds) AS refunds, sum(amount) AS amount, sum(quantity) AS quantity
     FROM report_refunds_daily WHERE ${within} GROUP BY day ORDER BY day`,
    params(orgId, r),
  )
  return result.rows
}

export async function tax(q: Queryable, orgId: string, r: Range): Promise<TaxRow[]> {
  const result = await q.query<TaxRow>(
    `SELECT tax_rate_e4, sum(taxable) AS taxable, sum(tax) AS tax
     FROM report_tax_daily WHERE ${within} GROUP BY tax_rate_e4 ORDER BY tax_rate_e4`,
    params(orgId, r),
  )
  return result.rows
}

/** Every aggregate of the org computed again from its orders, refunds and payments (`opentill rebuild-reports`). */
export async function rebuild(q: Queryable): Promise<void> {
  // An operator's repair command that runs for minutes on a large org: exempt from the pool's statement timeout,
  // for this transaction only.
  await q.query('SET LOCAL statement_timeout = 0')
  await q.query('SELECT report_rebuild()')
}

/** Sales, refunds and voids by the member of staff who made them, or by register ('' is unknown). */
export async function staff(q: Queryable, orgId: string, r: Range, by: 'user' | 'register'): Promise<StaffRow[]> {
  const result = await q.query<StaffRow>(
    `SELECT ${by === 'user' ? 'user_id' : 'register_id'} AS key, sum(orders) AS orders, sum(discounts) AS discounts,
       sum(total) AS total, sum(tips) AS tips, sum(refunds) AS refunds, sum(refunded) AS refunded, sum(voids) AS voids,
       sum(voided) AS voided
     FROM report_staff_daily WHERE ${within} GROUP BY 1 ORDER BY sum(total) DESC, 1`,
    params(orgId, r),
  )
  return result.rows
}
