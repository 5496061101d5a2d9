/** Row type and column list of the categories table (db/migrations/0002_catalog_products.sql). */

export interface CategoryRow {
  id: string
  name: string
  description: string
  parent_id: string | null
  sort_order: number
  is_active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const categoryColumns =
  'id, name, description, parent_id, sort_order, is_active, version, created_at, updated_at'
