/** Row types and column list of the bundle tables (db/migrations/0013_catalog_bundles.sql). */

export interface BundleRow {
  id: string
  product_id: string
  version: number
  created_at: Date
  updated_at: Date
}

export const bundleColumns = 'id, product_id, version, created_at, updated_at'

/** A bundle_components row with its bundle's product id (joined from bundles). */
export interface ComponentRow {
  bundle_id: string
  bundle_product_id: string
  product_id: string
  variant_id: string | null
  quantity: number
}
