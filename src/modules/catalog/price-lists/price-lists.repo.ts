import type { Queryable } from '../../../platform/db/database.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { replacePositioned, rowById } from '../catalog.repo.ts'
import { type PriceListRow, type PriceRow, priceListColumns } from './price-lists.tables.ts'

interface PriceListWrite {
  name?: string
  locationId?: string | null
  startsAt?: Date | null
  endsAt?: Date | null
  isActive?: boolean
}

export interface PriceWrite {
  productId: string
  variantId: string | null
  price: bigint
}

export async function listPriceLists(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; locationId?: string; isActive?: boolean; limit: number },
): Promise<PriceListRow[]> {
  const result = await q.query<PriceListRow>(
    `SELECT ${priceListColumns} FROM price_lists
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR location_id = $3)
       AND ($4::boolean IS NULL OR is_active = $4)
     ORDER BY id LIMIT $5`,
    [orgId, f.afterId ?? null, f.locationId ?? null, f.isActive ?? null, f.limit],
  )
  return result.rows
}

export async function priceListById(q: Queryable, orgId: string, id: string): Promise<PriceListRow | undefined> {
  return rowById<PriceListRow>(q, 'price_lists', priceListColumns, orgId, id)
}

export async function pricesOf(q: Queryable, orgId: string, listIds: readonly string[]): Promise<PriceRow[]> {
  const result = await q.query<PriceRow>(
    `SELECT price_list_id, product_id, variant_id, price FROM price_list_prices
     WHERE org_id = $1 AND price_list_id = ANY($2) ORDER BY price_list_id, position`,
    [orgId, listIds],
  )
  return result.rows
}

export async function insertPriceList(
  q: Queryable,
  orgId: string,
  id: string,
  l: Required<PriceListWrite>,
): Promise<PriceListRow> {
  const result = await q.query<PriceListRow>(
    `INSERT INTO price_lists (id, org_id, name, location_id, starts_at, ends_at, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${priceListColumns}`,
    [id, orgId, l.name, l.locationId, l.startsAt, l.endsAt, l.isActive],
  )
  return result.rows[0]
}

export async function updatePriceList(
  q: Queryable,
  orgId: string,
  id: string,
  l: PriceListWrite,
  expectedVersion: number | undefined,
) {
  return updateVersioned<PriceListRow>(
    q,
    'price_lists',
    priceListColumns,
    orgId,
    id,
    { name: l.name, location_id: l.locationId, starts_at: l.startsAt, ends_at: l.endsAt, is_active: l.isActive },
    expectedVersion,
  )
}

export async function replacePrices(
  q: Queryable,
  orgId: string,
  listId: string,
  prices: readonly PriceWrite[],
): Promise<void> {
  await replacePositioned(q, 'price_list_prices', 'price_list_id', orgId, listId, [
    { name: 'product_id', type: 'text', values: prices.map((p) => p.productId) },
    { name: 'variant_id', type: 'text', values: prices.map((p) => p.variantId) },
    { name: 'price', type: 'bigint', values: prices.map((p) => p.price.toString()) },
  ])
}
