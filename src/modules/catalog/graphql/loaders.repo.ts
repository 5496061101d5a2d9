import type { Queryable } from '../../../platform/db/database.ts'
import { type CategoryRow, categoryColumns } from '../categories/categories.tables.ts'
import type { BriefOptionRow, LoaderGroupRow } from '../modifiers/modifiers.tables.ts'
import { type ProductRow, productColumns } from '../products/products.tables.ts'

/**
 * Batched reads for the GraphQL catalog API: each answers many parents in one query, so a nested selection
 * costs one query per level however many rows it spans (no N+1).
 */

export async function categoriesByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<CategoryRow[]> {
  const result = await q.prepared<CategoryRow>(
    'gql_categories_by_ids',
    `SELECT ${categoryColumns} FROM categories WHERE org_id = $1 AND id = ANY($2)`,
    [orgId, ids],
  )
  return result.rows
}

/** The first `limit` products (creation order) of each category, all categories in one query. */
export async function productsOfCategories(
  q: Queryable,
  orgId: string,
  categoryIds: readonly string[],
  f: { isActive?: boolean; limit: number },
): Promise<ProductRow[]> {
  const result = await q.prepared<ProductRow>(
    'gql_products_of_categories',
    `SELECT p.*
     FROM unnest($2::text[]) AS c(category)
     CROSS JOIN LATERAL (
       SELECT ${productColumns} FROM products
       WHERE org_id = $1 AND category_id = c.category AND ($3::boolean IS NULL OR is_active = $3)
       ORDER BY id
       LIMIT $4
     ) AS p`,
    [orgId, categoryIds, f.isActive ?? null, f.limit],
  )
  return result.rows
}

/** The groups attached to each of `productIds`, in position order, all products in one query. */
export async function modifierGroupsOfProducts(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
): Promise<LoaderGroupRow[]> {
  const result = await q.prepared<LoaderGroupRow>(
    'gql_modifier_groups_of_products',
    `SELECT g.id, g.name, g.required, g.min_selections, g.max_selections, pmg.product_id
     FROM product_modifier_groups pmg JOIN modifier_groups g ON g.id = pmg.group_id AND g.org_id = pmg.org_id
     WHERE pmg.org_id = $1 AND pmg.product_id = ANY($2)
     ORDER BY pmg.product_id, pmg.position, g.id`,
    [orgId, productIds],
  )
  return result.rows
}

/** The options of each of `groupIds`, in creation order, all groups in one query. */
export async function optionsOfGroups(
  q: Queryable,
  orgId: string,
  groupIds: readonly string[],
): Promise<BriefOptionRow[]> {
  const result = await q.prepared<BriefOptionRow>(
    'gql_options_of_groups',
    `SELECT id, group_id, name, price_adjustment, is_default FROM modifier_options
     WHERE org_id = $1 AND group_id = ANY($2)
     ORDER BY group_id, id`,
    [orgId, groupIds],
  )
  return result.rows
}
