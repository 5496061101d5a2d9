import type { Queryable } from '../../platform/db/database.ts'

export interface QuoteProductRow {
  id: string
  name: string
  sku: string
  category_id: string | null
  base_price: string
  is_active: boolean
}

export interface QuoteVariantRow {
  id: string
  product_id: string
  name: string
  sku: string
  price: string | null
  is_active: boolean
}

export interface QuoteGroupRow {
  product_id: string
  id: string
  name: string
  required: boolean
  min_selections: number
  max_selections: number | null
}

export interface QuoteOptionRow {
  id: string
  group_id: string
  name: string
  price_adjustment: string
  is_default: boolean
}

export interface PriceEntryRow {
  price_list_id: string
  location_id: string | null
  product_id: string
  variant_id: string | null
  price: string
}

export interface MarkdownRow {
  id: string
  kind: 'percentage' | 'amount'
  value: string
  category_id: string | null
  product_id: string | null
}

export async function quoteProducts(q: Queryable, orgId: string, ids: readonly string[]): Promise<QuoteProductRow[]> {
  const result = await q.prepared<QuoteProductRow>(
    'quote_products',
    'SELECT id, name, sku, category_id, base_price, is_active FROM products WHERE org_id = $1 AND id = ANY($2)',
    [orgId, ids],
  )
  return result.rows
}

export async function quoteVariants(q: Queryable, orgId: string, ids: readonly string[]): Promise<QuoteVariantRow[]> {
  const result = await q.prepared<QuoteVariantRow>(
    'quote_variants',
    'SELECT id, product_id, name, sku, price, is_active FROM product_variants WHERE org_id = $1 AND id = ANY($2)',
    [orgId, ids],
  )
  return result.rows
}

/** The modifier groups attached to each product, in attachment order. */
export async function quoteGroups(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
): Promise<QuoteGroupRow[]> {
  const result = await q.prepared<QuoteGroupRow>(
    'quote_groups',
    `SELECT pmg.product_id, g.id, g.name, g.required, g.min_selections, g.max_selections
     FROM product_modifier_groups pmg JOIN modifier_groups g ON g.id = pmg.group_id AND g.org_id = pmg.org_id
     WHERE pmg.org_id = $1 AND pmg.product_id = ANY($2)
     ORDER BY pmg.product_id, pmg.position`,
    [orgId, productIds],
  )
  return result.rows
}

export async function quoteOptions(
  q: Queryable,
  orgId: string,
  groupIds: readonly string[],
): Promise<QuoteOptionRow[]> {
  const result = await q.prepared<QuoteOptionRow>(
    'quote_options',
    'SELECT id, group_id, name, price_adjustment, is_default FROM modifier_options WHERE org_id = $1 AND group_id = ANY($2) ORDER BY id',
    [orgId, groupIds],
  )
  return result.rows
}

/** Entries of the active price lists valid at `at` for the location (or org-wide) that price these products. */
export async function applicablePrices(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
  locationId: string | null,
  at: Date,
): Promise<PriceEntryRow[]> {
  const result = await q.prepared<PriceEntryRow>(
    'quote_prices',
    `SELECT l.id AS price_list_id, l.location_id, p.product_id, p.variant_id, p.price
     FROM price_lists l JOIN price_list_prices p ON p.price_list_id = l.id AND p.org_id = l.org_id
     WHERE l.org_id = $1 AND p.product_id = ANY($2) AND l.is_active
       AND (l.location_id IS NULL OR l.location_id = $3::text)
       AND (l.starts_at IS NULL OR l.starts_at <= $4) AND (l.ends_at IS NULL OR l.ends_at > $4)
     ORDER BY l.id`,
    [orgId, productIds, locationId, at],
  )
  return result.rows
}

/** Each category with itself and all its ancestors, so a markdown on a parent reaches its subcategories. */
export async function categoryAncestry(
  q: Queryable,
  orgId: string,
  categoryIds: readonly string[],
): Promise<{ start_id: string; id: string }[]> {
  const result = await q.prepared<{ start_id: string; id: string }>(
    'quote_category_ancestry',
    `WITH RECURSIVE up(start_id, id, parent_id, depth) AS (
       SELECT id, id, parent_id, 0 FROM categories WHERE org_id = $1 AND id = ANY($2)
       UNION ALL
       SELECT up.start_id, c.id, c.parent_id, up.depth + 1
       FROM categories c JOIN up ON c.id = up.parent_id
       WHERE c.org_id = $1 AND up.depth < 100
     )
     SELECT start_id, id FROM up`,
    [orgId, categoryIds],
  )
  return result.rows
}

/** Active markdowns valid at `at` that target one of the products or one of the categories. */
export async function applicableMarkdowns(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
  categoryIds: readonly string[],
  at: Date,
): Promise<MarkdownRow[]> {
  const result = await q.prepared<MarkdownRow>(
    'quote_markdowns',
    `SELECT m.id, m.kind, m.value, m.category_id, mp.product_id
     FROM markdowns m LEFT JOIN markdown_products mp ON mp.markdown_id = m.id AND mp.org_id = m.org_id
     WHERE m.org_id = $1 AND m.is_active
       AND (m.starts_at IS NULL OR m.starts_at <= $4) AND (m.ends_at IS NULL OR m.ends_at > $4)
       AND (mp.product_id = ANY($2) OR m.category_id = ANY($3))
     ORDER BY m.id`,
    [orgId, productIds, categoryIds, at],
  )
  return result.rows
}
