import type { Queryable } from '../../../platform/db/database.ts'

/** A sold_out_items row (db/migrations/0146_untracked_sold_out_tips.sql) with the id the API names it by. */
export interface SoldOutRow {
  location_id: string
  item_id: string
  product_id: string
  variant_id: string
  created_at: Date
}

const columns = `location_id, CASE WHEN variant_id = '' THEN product_id ELSE variant_id END AS item_id, product_id,
  variant_id, created_at`

/** A page of a location's sold-out items by item id; `limit` is the number of rows to fetch. */
export async function listSoldOut(
  q: Queryable,
  orgId: string,
  locationId: string,
  afterItemId: string | null,
  limit: number,
): Promise<SoldOutRow[]> {
  const result = await q.query<SoldOutRow>(
    `SELECT * FROM (SELECT ${columns} FROM sold_out_items WHERE org_id = $1 AND location_id = $2) s
     WHERE $3::text IS NULL OR item_id > $3 ORDER BY item_id LIMIT $4`,
    [orgId, locationId, afterItemId, limit],
  )
  return result.rows
}

/** Everything sold out at the location (a till's snapshot: a location's marks are few). */
export async function soldOutAt(q: Queryable, orgId: string, locationId: string): Promise<SoldOutRow[]> {
  const result = await q.query<SoldOutRow>(
    `SELECT ${columns} FROM sold_out_items WHERE org_id = $1 AND location_id = $2 ORDER BY 2`,
    [orgId, locationId],
  )
  return result.rows
}

/** Marks the item sold out at the location, or finds it marked already. */
export async function markSoldOut(
  q: Queryable,
  orgId: string,
  locationId: string,
  productId: string,
  variantId: string,
): Promise<SoldOutRow> {
  // A mark made meanwhile by another request is answered as it is (the update keeps it, and returns it).
  const result = await q.query<SoldOutRow>(
    `INSERT INTO sold_out_items (org_id, location_id, product_id, variant_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id, location_id, product_id, variant_id) DO UPDATE SET created_at = sold_out_items.created_at
     RETURNING ${columns}`,
    [orgId, locationId, productId, variantId],
  )
  return result.rows[0]
}

export async function clearSoldOut(
  q: Queryable,
  orgId: string,
  locationId: string,
  productId: string,
  variantId: string,
): Promise<void> {
  await q.query(
    'DELETE FROM sold_out_items WHERE org_id = $1 AND location_id = $2 AND product_id = $3 AND variant_id = $4',
    [orgId, locationId, productId, variantId],
  )
}
