import type { Queryable } from '../../../platform/db/database.ts'
import type { QuoteData } from './pricing.tables.ts'

/** A timestamp column as epoch milliseconds (JSON has no timestamp type). */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`

/**
 * Everything a quote of these products at `locationId` needs, in one statement and whatever the time: the
 * products and all their variants, their modifier groups and options, the active price list entries and markdowns
 * with their validity windows (markdowns on a category reach its subcategories through the ancestry), what
 * each bundle draws down (with whether each component is counted), and what is sold out at the location. Nothing depends on the clock, so the answer may be kept until the catalog changes.
 * Money columns travel as text so bigint values keep every digit.
 */
export async function quoteData(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
  locationId: string | null,
): Promise<QuoteData> {
  const result = await q.prepared<QuoteData>(
    'quote_data',
    `WITH RECURSIVE p AS (
       SELECT id, name, sku, category_id, base_price::text AS base_price, is_active, track_inventory
       FROM products WHERE org_id = $1 AND id = ANY($2::text[])
     ), v AS (
       SELECT id, product_id, name, sku, price::text AS price, is_active, track_inventory
       FROM product_variants WHERE org_id = $1 AND product_id = ANY($2::text[])
     ), g AS (
       SELECT pmg.product_id, g.id, g.name, g.required, g.min_selections, g.max_selections, pmg.position
       FROM product_modifier_groups pmg JOIN modifier_groups g ON g.id = pmg.group_id AND g.org_id = pmg.org_id
       WHERE pmg.org_id = $1 AND pmg.product_id = ANY($2::text[])
     ), o AS (
       SELECT id, group_id, name, price_adjustment::text AS price_adjustment, is_default
       FROM modifier_options WHERE org_id = $1 AND group_id IN (SELECT id FROM g)
     ), pr AS (
       SELECT l.id AS price_list_id, l.location_id, e.product_id, e.variant_id, e.price::text AS price,
         ${epochMs('l.starts_at')} AS starts_ms, ${epochMs('l.ends_at')} AS ends_ms
       FROM price_lists l JOIN price_list_prices e ON e.price_list_id = l.id AND e.org_id = l.org_id
       WHERE l.org_id = $1 AND e.product_id = ANY($2::text[]) AND l.is_active
         AND (l.location_id IS NULL OR l.location_id = $3::text)
     ), up(start_id, id, parent_id, depth) AS (
       SELECT id, id, parent_id, 0 FROM categories WHERE org_id = $1 AND id IN (SELECT category_id FROM p)
       UNION ALL
       SELECT up.start_id, c.id, c.parent_id, up.depth + 1
       FROM categories c JOIN up ON c.id = up.parent_id
       WHERE c.org_id = $1 AND up.depth < 100
     ), md AS (
       SELECT m.id, m.kind, m.value::text AS value, m.category_id, mp.product_id,
         ${epochMs('m.starts_at')} AS starts_ms, ${epochMs('m.ends_at')} AS ends_ms
       FROM markdowns m LEFT JOIN markdown_products mp ON mp.markdown_id = m.id AND mp.org_id = m.org_id
       WHERE m.org_id = $1 AND m.is_active
         AND (mp.product_id = ANY($2::text[]) OR m.category_id IN (SELECT id FROM up))
     ), bc AS (
       SELECT b.product_id AS bundle_product_id, c.product_id, c.variant_id, c.quantity, c.bundle_id, c.position,
         cp.track_inventory AND COALESCE(cv.track_inventory, true) AS tracked
       FROM bundle_components c JOIN bundles b ON b.id = c.bundle_id AND b.org_id = c.org_id
         JOIN products cp ON cp.id = c.product_id AND cp.org_id = c.org_id
         LEFT JOIN product_variants cv ON cv.id = c.variant_id AND cv.org_id = c.org_id
       WHERE c.org_id = $1 AND b.product_id = ANY($2::text[])
     ), so AS (
       SELECT product_id, variant_id FROM sold_out_items
       WHERE org_id = $1 AND location_id = $3::text AND product_id = ANY($2::text[])
     )
     SELECT
       (SELECT coalesce(json_agg(p), '[]') FROM p) AS products,
       (SELECT coalesce(json_agg(v), '[]') FROM v) AS variants,
       (SELECT coalesce(json_agg(g ORDER BY g.product_id, g.position), '[]') FROM g) AS groups,
       (SELECT coalesce(json_agg(o ORDER BY o.id), '[]') FROM o) AS options,
       (SELECT coalesce(json_agg(pr ORDER BY pr.price_list_id), '[]') FROM pr) AS prices,
       (SELECT coalesce(json_agg(json_build_object('start_id', up.start_id, 'id', up.id)), '[]') FROM up) AS ancestry,
       (SELECT coalesce(json_agg(md ORDER BY md.id), '[]') FROM md) AS markdowns,
       (SELECT coalesce(json_agg(bc ORDER BY bc.bundle_id, bc.position), '[]') FROM bc) AS components,
       (SELECT coalesce(json_agg(so ORDER BY so.product_id, so.variant_id), '[]') FROM so) AS sold_out`,
    [orgId, productIds, locationId],
  )
  return result.rows[0]
}
