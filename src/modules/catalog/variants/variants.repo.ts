import type { Queryable } from '../../../platform/db/database.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { rowById } from '../catalog.repo.ts'
import { type VariantRow, variantColumns } from './variants.tables.ts'

export interface VariantWrite {
  name?: string
  sku?: string
  optionValues?: Record<string, string>
  price?: bigint | null
  cost?: bigint | null
  barcodes?: string[]
  isActive?: boolean
  trackInventory?: boolean
}

export async function listVariants(
  q: Queryable,
  orgId: string,
  productId: string,
  f: { afterId?: string; isActive?: boolean; limit: number },
): Promise<VariantRow[]> {
  const result = await q.query<VariantRow>(
    `SELECT ${variantColumns} FROM product_variants
     WHERE org_id = $1 AND product_id = $2 AND ($3::text IS NULL OR id > $3) AND ($4::boolean IS NULL OR is_active = $4)
     ORDER BY id LIMIT $5`,
    [orgId, productId, f.afterId ?? null, f.isActive ?? null, f.limit],
  )
  return result.rows
}

export async function variantById(q: Queryable, orgId: string, id: string): Promise<VariantRow | undefined> {
  return rowById<VariantRow>(q, 'product_variants', variantColumns, orgId, id)
}

export async function insertVariant(
  q: Queryable,
  orgId: string,
  id: string,
  productId: string,
  v: Required<VariantWrite>,
): Promise<VariantRow> {
  const result = await q.query<VariantRow>(
    `INSERT INTO product_variants (id, org_id, product_id, name, sku, option_values, price, cost, barcodes, is_active,
       track_inventory)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${variantColumns}`,
    [
      id,
      orgId,
      productId,
      v.name,
      v.sku,
      JSON.stringify(v.optionValues),
      v.price?.toString() ?? null,
      v.cost?.toString() ?? null,
      v.barcodes,
      v.isActive,
      v.trackInventory,
    ],
  )
  return result.rows[0]
}

export async function updateVariant(
  q: Queryable,
  orgId: string,
  id: string,
  v: VariantWrite,
  expectedVersion: number | undefined,
): Promise<VariantRow | undefined> {
  return updateVersioned<VariantRow>(
    q,
    'product_variants',
    variantColumns,
    orgId,
    id,
    {
      name: v.name,
      sku: v.sku,
      option_values: v.optionValues && JSON.stringify(v.optionValues),
      // null is a real value here (back to the product's price), so it is kept apart from "not given".
      price: v.price === undefined ? undefined : (v.price?.toString() ?? null),
      cost: v.cost === undefined ? undefined : (v.cost?.toString() ?? null),
      barcodes: v.barcodes,
      is_active: v.isActive,
      track_inventory: v.trackInventory,
    },
    expectedVersion,
  )
}

export async function variantsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<VariantRow[]> {
  const result = await q.query<VariantRow>(
    `SELECT ${variantColumns} FROM product_variants WHERE org_id = $1 AND id = ANY($2) ORDER BY id`,
    [orgId, ids],
  )
  return result.rows
}

export async function variantsOfProducts(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
): Promise<VariantRow[]> {
  const result = await q.query<VariantRow>(
    `SELECT ${variantColumns} FROM product_variants WHERE org_id = $1 AND product_id = ANY($2) ORDER BY product_id, id`,
    [orgId, productIds],
  )
  return result.rows
}
