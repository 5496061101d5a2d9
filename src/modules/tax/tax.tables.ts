/** Row type and column list of tax_rates (db/migrations/0040_tax_rates.sql). */

export interface TaxRateRow {
  id: string
  org_id: string
  name: string
  rate_e4: number
  applies_to: 'all' | 'categories' | 'products'
  category_ids: string[]
  product_ids: string[]
  is_active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const taxRateColumns =
  'id, org_id, name, rate_e4, applies_to, category_ids, product_ids, is_active, version, created_at, updated_at'
