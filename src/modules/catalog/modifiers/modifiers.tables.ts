/** Row types and column lists of the modifier tables (db/migrations/0011_catalog_modifiers.sql). */

export interface GroupRow {
  id: string
  name: string
  required: boolean
  min_selections: number
  max_selections: number | null
  version: number
  created_at: Date
  updated_at: Date
}

export const groupColumns = 'id, name, required, min_selections, max_selections, version, created_at, updated_at'

/** A group without its bookkeeping, as the GraphQL loader and the quote read it. */
export type BriefGroupRow = Pick<GroupRow, 'id' | 'name' | 'required' | 'min_selections' | 'max_selections'>

/** A group as the GraphQL loader reads it. */
export type LoaderGroupRow = BriefGroupRow & {
  /** Set when the group was looked up through a product. */
  product_id?: string
}

export interface OptionRow {
  id: string
  group_id: string
  name: string
  price_adjustment: string
  is_default: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const optionColumns = 'id, group_id, name, price_adjustment, is_default, version, created_at, updated_at'

/** An option without its bookkeeping, as the GraphQL loader and the quote read it. */
export type BriefOptionRow = Pick<OptionRow, 'id' | 'group_id' | 'name' | 'price_adjustment' | 'is_default'>
