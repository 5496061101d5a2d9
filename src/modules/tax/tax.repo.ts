import type { Queryable } from '../../platform/db/database.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'
import { type TaxRateRow, taxRateColumns } from './tax.tables.ts'

export interface TaxRateWrite {
  name?: string
  rateE4?: number
  appliesTo?: TaxRateRow['applies_to']
  categoryIds?: string[]
  productIds?: string[]
  isActive?: boolean
}

export async function listTaxRates(
  q: Queryable,
  orgId: string,
  afterId: string | null,
  limit: number,
): Promise<TaxRateRow[]> {
  const result = await q.query<TaxRateRow>(
    `SELECT ${taxRateColumns} FROM tax_rates WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    [orgId, afterId, limit],
  )
  return result.rows
}

/** The active rates: few per org, read whole on every order. */
export async function activeTaxRates(q: Queryable, orgId: string): Promise<TaxRateRow[]> {
  const result = await q.prepared<TaxRateRow>(
    'tax_rates_active',
    `SELECT ${taxRateColumns} FROM tax_rates WHERE org_id = $1 AND is_active ORDER BY id`,
    [orgId],
  )
  return result.rows
}

export async function taxRateById(q: Queryable, orgId: string, id: string): Promise<TaxRateRow | undefined> {
  const result = await q.query<TaxRateRow>(`SELECT ${taxRateColumns} FROM tax_rates WHERE org_id = $1 AND id = $2`, [
    orgId,
    id,
  ])
  return result.rows[0]
}

export async function insertTaxRate(
  q: Queryable,
  orgId: string,
  id: string,
  w: Required<TaxRateWrite>,
): Promise<TaxRateRow> {
  const result = await q.query<TaxRateRow>(
    `INSERT INTO tax_rates (id, org_id, name, rate_e4, applies_to, category_ids, product_ids, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${taxRateColumns}`,
    [id, orgId, w.name, w.rateE4, w.appliesTo, w.categoryIds, w.productIds, w.isActive],
  )
  return result.rows[0]
}

export async function updateTaxRate(
  q: Queryable,
  orgId: string,
  id: string,
  w: TaxRateWrite,
  expectedVersion: number | undefined,
): Promise<TaxRateRow | undefined> {
  return updateVersioned<TaxRateRow>(
    q,
    'tax_rates',
    taxRateColumns,
    orgId,
    id,
    {
      name: w.name,
      rate_e4: w.rateE4,
      applies_to: w.appliesTo,
      category_ids: w.categoryIds,
      product_ids: w.productIds,
      is_active: w.isActive,
    },
    expectedVersion,
  )
}
