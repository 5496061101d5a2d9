/** Row types and column list of the price list tables (db/migrations/0012_catalog_price_lists.sql). */

export interface PriceListRow {
  id: string
  name: string
  location_id: string | null
  starts_at: Date | null
  ends_at: Date | null
  is_active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const priceListColumns = 'id, name, location_id, starts_at, ends_at, is_active, version, created_at, updated_at'

export interface PriceRow {
  price_list_id: string
  product_id: string
  variant_id: string | null
  price: string
}
