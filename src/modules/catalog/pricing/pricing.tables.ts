import type { ComponentRow } from '../bundles/bundles.tables.ts'
import type { MarkdownRow, TargetRow } from '../markdowns/markdowns.tables.ts'
import type { BriefGroupRow, BriefOptionRow } from '../modifiers/modifiers.tables.ts'
import type { PriceListRow, PriceRow } from '../price-lists/price-lists.tables.ts'
import type { ProductRow } from '../products/products.tables.ts'
import type { VariantRow } from '../variants/variants.tables.ts'

/**
 * What the quote read (pricing.repo.ts) answers: one JSON array per catalog table, each a projection of that
 * table's row type (the tables of db/migrations/0002_catalog_products.sql and 0010 to 0014).
 */

/** When a price list or markdown applies: epoch milliseconds, null for an open end. */
export interface ValidityWindow {
  starts_ms: number | null
  ends_ms: number | null
}

export type QuoteVariantRow = Pick<
  VariantRow,
  'id' | 'product_id' | 'name' | 'sku' | 'price' | 'is_active' | 'track_inventory'
>

export interface QuoteData {
  products: Pick<ProductRow, 'id' | 'name' | 'sku' | 'category_id' | 'base_price' | 'is_active' | 'track_inventory'>[]
  variants: QuoteVariantRow[]
  groups: (BriefGroupRow & { product_id: string })[]
  options: BriefOptionRow[]
  prices: (Pick<PriceRow, 'price_list_id' | 'product_id' | 'variant_id' | 'price'> &
    Pick<PriceListRow, 'location_id'> &
    ValidityWindow)[]
  ancestry: { start_id: string; id: string }[]
  /** product_id is null on a markdown that targets a category. */
  markdowns: (Pick<MarkdownRow, 'id' | 'kind' | 'value' | 'category_id'> & {
    product_id: TargetRow['product_id'] | null
  } & ValidityWindow)[]
  /** `tracked`: the component and its product are counted (docs/commerce.md "Items nobody counts"). */
  components: (Omit<ComponentRow, 'bundle_id'> & { tracked: boolean })[]
  /** What is sold out at the quote's location: a whole product (variant_id '') or one variant. */
  sold_out: { product_id: string; variant_id: string }[]
}
