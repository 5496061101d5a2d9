import type { Queryable } from '../../../platform/db/database.ts'
import { bundleColumns } from '../bundles/bundles.tables.ts'
import { categoryColumns } from '../categories/categories.tables.ts'
import { markdownColumns } from '../markdowns/markdowns.tables.ts'
import { groupColumns } from '../modifiers/modifiers.tables.ts'
import { priceListColumns } from '../price-lists/price-lists.tables.ts'
import { productColumns } from '../products/products.tables.ts'
import { variantColumns } from '../variants/variants.tables.ts'

/** The collections a till's catalog tracks row by row (db/migrations/0148_catalog_sync.sql), with their columns. */
export const TRACKED = {
  products: { table: 'products', columns: productColumns },
  variants: { table: 'product_variants', columns: variantColumns },
  categories: { table: 'categories', columns: categoryColumns },
  modifier_groups: { table: 'modifier_groups', columns: groupColumns },
  price_lists: { table: 'price_lists', columns: priceListColumns },
  bundles: { table: 'bundles', columns: bundleColumns },
  markdowns: { table: 'markdowns', columns: markdownColumns },
} as const
export type TrackedKind = keyof typeof TRACKED

/**
 * The version a snapshot read from here on is stamped with: the oldest transaction still running. Every row written
 * by an older one is visible to this read; a later `since` answers the rest. Read before anything else.
 */
export async function snapshotVersion(q: Queryable): Promise<string> {
  const result = await q.query<{ v: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS v')
  return result.rows[0].v
}

/** The rows of a tracked collection written since `since` (all of them when null), by id. */
export async function changedRows<R>(q: Queryable, kind: TrackedKind, orgId: string, since: string | null) {
  const { table, columns } = TRACKED[kind]
  const result = await q.query<R>(
    `SELECT ${columns} FROM ${table} WHERE org_id = $1 AND ($2::xid8 IS NULL OR sync_xid >= $2::xid8) ORDER BY id`,
    [orgId, since],
  )
  return result.rows
}

/** What was deleted since `since`, by collection. */
export async function deletedSince(q: Queryable, orgId: string, since: string) {
  const result = await q.query<{ kind: TrackedKind; id: string }>(
    'SELECT kind, id FROM sync_deletions WHERE org_id = $1 AND sync_xid >= $2::xid8 ORDER BY kind, id',
    [orgId, since],
  )
  return result.rows
}
