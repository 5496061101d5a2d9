/** Row types and column list of the markdown tables (db/migrations/0014_catalog_markdowns.sql). */

export interface MarkdownRow {
  id: string
  name: string
  kind: 'percentage' | 'amount'
  value: string
  category_id: string | null
  starts_at: Date | null
  ends_at: Date | null
  is_active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const markdownColumns =
  'id, name, kind, value, category_id, starts_at, ends_at, is_active, version, created_at, updated_at'

/** A markdown_products row: one product a markdown targets. */
export interface TargetRow {
  markdown_id: string
  product_id: string
}
