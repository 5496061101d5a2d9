import type { Queryable } from '../../../platform/db/database.ts'
import { containing } from '../../../platform/db/like.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { type ProductRow, productColumns } from './products.tables.ts'

interface ProductFilter {
  afterId?: string
  categoryId?: string
  isActive?: boolean
  search?: string
  barcode?: string
  sku?: string
  ids?: string[]
  limit: number
}

export interface ProductWrite {
  name?: string
  description?: string
  sku?: string
  barcodes?: string[]
  basePrice?: bigint
  cost?: bigint | null
  categoryId?: string | null
  tags?: string[]
  isActive?: boolean
  trackInventory?: boolean
}

/**
 * Keyset page in creation order; `limit` is the number of rows to fetch (the caller asks one more than it serves).
 * The statement holds only the filters given, one prepared statement per combination: a catch-all
 * `($n IS NULL OR …)` statement gets a generic plan after five runs that scans and sorts the whole org
 * (5 ms at 10,000 products) where the index on (org_id, id) answers in 0.1 ms. A search (`q`) or a scan
 * (`barcode`) runs in products_search (db/migrations/0132), where its indexes can serve it.
 */
export async function listProducts(q: Queryable, orgId: string, f: ProductFilter): Promise<ProductRow[]> {
  if (f.search !== undefined || f.barcode !== undefined) return searchProducts(q, f)
  const params: unknown[] = [orgId]
  const where = ['org_id = $1']
  let name = 'products_list'
  const add = (flag: string, condition: (n: number) => string, value: unknown) => {
    params.push(value)
    where.push(condition(params.length))
    name += `_${flag}`
  }
  if (f.afterId !== undefined) add('a', (n) => `id > $${n}`, f.afterId)
  if (f.categoryId !== undefined) add('c', (n) => `category_id = $${n}`, f.categoryId)
  if (f.isActive !== undefined) add('i', (n) => `is_active = $${n}`, f.isActive)
  if (f.sku !== undefined) add('k', (n) => `sku = $${n}`, f.sku)
  if (f.ids !== undefined) add('d', (n) => `id = ANY($${n}::text[])`, f.ids)
  params.push(f.limit)
  const result = await q.prepared<ProductRow>(
    name,
    `SELECT ${productColumns} FROM products WHERE ${where.join(' AND ')} ORDER BY id LIMIT $${params.length}`,
    params,
  )
  return result.rows
}

/**
 * A page of a search or a scan, through products_search: row-level security keeps an index from serving ILIKE
 * or `@>` under the app's role (they are not leakproof), so the function runs as the owner within the session's
 * org, and plans each statement for its values (db/migrations/0132, docs/benchmarks.md "Growth").
 */
async function searchProducts(q: Queryable, f: ProductFilter): Promise<ProductRow[]> {
  const result = await q.query<ProductRow>(
    `SELECT ${productColumns} FROM products_search($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      f.search ?? null,
      f.search === undefined ? null : containing(f.search),
      f.barcode ?? null,
      f.afterId ?? null,
      f.categoryId ?? null,
      f.isActive ?? null,
      f.sku ?? null,
      f.limit,
    ],
  )
  return result.rows
}

export async function productById(q: Queryable, orgId: string, id: string): Promise<ProductRow | undefined> {
  const result = await q.prepared<ProductRow>(
    'product_by_id',
    `SELECT ${productColumns} FROM products WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

/** The products of these SKUs, locked until the caller's transaction ends (a batch writes what it read). */
export async function lockProductsBySkus(q: Queryable, orgId: string, skus: readonly string[]): Promise<ProductRow[]> {
  const result = await q.query<ProductRow>(
    `SELECT ${productColumns} FROM products WHERE org_id = $1 AND sku = ANY($2::text[]) ORDER BY id FOR UPDATE`,
    [orgId, skus],
  )
  return result.rows
}

/** Which of these SKUs a variant of the org holds (a product may not take a variant's SKU). */
export async function variantSkus(q: Queryable, orgId: string, skus: readonly string[]): Promise<Set<string>> {
  const result = await q.query<{ sku: string }>(
    `SELECT sku FROM catalog_skus WHERE org_id = $1 AND sku = ANY($2::text[])
       AND NOT EXISTS (SELECT 1 FROM products p WHERE p.org_id = $1 AND p.id = owner_id)`,
    [orgId, skus],
  )
  return new Set(result.rows.map((r) => r.sku))
}

export async function productsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<ProductRow[]> {
  const result = await q.prepared<ProductRow>(
    'products_by_ids',
    `SELECT ${productColumns} FROM products WHERE org_id = $1 AND id = ANY($2)`,
    [orgId, ids],
  )
  return result.rows
}

export async function productsByCategories(
  q: Queryable,
  orgId: string,
  categoryIds: readonly string[],
): Promise<ProductRow[]> {
  const result = await q.prepared<ProductRow>(
    'products_by_categories',
    `SELECT ${productColumns} FROM products WHERE org_id = $1 AND category_id = ANY($2) ORDER BY id`,
    [orgId, categoryIds],
  )
  return result.rows
}

/** Whether another product or a variant of the org already uses the SKU (catalog_skus holds both). */
export async function skuTaken(q: Queryable, orgId: string, sku: string, exceptId?: string): Promise<boolean> {
  const result = await q.query(
    'SELECT 1 FROM catalog_skus WHERE org_id = $1 AND sku = $2 AND ($3::text IS NULL OR owner_id <> $3)',
    [orgId, sku, exceptId ?? null],
  )
  return (result.rowCount ?? 0) > 0
}

export async function categoryExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await q.query('SELECT 1 FROM categories WHERE org_id = $1 AND id = $2', [orgId, id])
  return (result.rowCount ?? 0) > 0
}

export async function insertProduct(
  q: Queryable,
  orgId: string,
  id: string,
  p: Required<ProductWrite>,
): Promise<ProductRow> {
  const result = await q.query<ProductRow>(
    `INSERT INTO products (id, org_id, name, description, sku, barcodes, base_price, cost, category_id, tags, is_active,
       track_inventory)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${productColumns}`,
    [
      id,
      orgId,
      p.name,
      p.description,
      p.sku,
      p.barcodes,
      p.basePrice.toString(),
      p.cost?.toString() ?? null,
      p.categoryId,
      p.tags,
      p.isActive,
      p.trackInventory,
    ],
  )
  return result.rows[0]
}

/**
 * Applies the given fields when `expectedVersion` is absent or current, bumping the version. Returns undefined
 * when nothing matched: the caller tells a missing row from a stale version.
 */
export async function updateProduct(
  q: Queryable,
  orgId: string,
  id: string,
  p: ProductWrite,
  expectedVersion: number | undefined,
): Promise<ProductRow | undefined> {
  return updateVersioned<ProductRow>(
    q,
    'products',
    productColumns,
    orgId,
    id,
    {
      name: p.name,
      description: p.description,
      sku: p.sku,
      barcodes: p.barcodes,
      base_price: p.basePrice?.toString(),
      cost: p.cost === undefined ? undefined : (p.cost?.toString() ?? null),
      category_id: p.categoryId,
      tags: p.tags,
      is_active: p.isActive,
      track_inventory: p.trackInventory,
    },
    expectedVersion,
  )
}
