/** Row type and column list of the product_variants table (db/migrations/0010_catalog_variants.sql; cost: 0115_reports.sql; track_inventory: 0146). */

export interface VariantRow {
  id: string
  product_id: string
  name: string
  sku: string
  option_values: Record<string, string>
  price: string | null
  cost: string | null
  barcodes: string[]
  is_active: boolean
  track_inventory: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const variantColumns =
  'id, product_id, name, sku, option_values, price, cost, barcodes, is_active, track_inventory, version, created_at, updated_at'
