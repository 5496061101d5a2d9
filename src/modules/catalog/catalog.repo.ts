import type { Queryable } from '../../platform/db/database.ts'
import type { ProductRow } from './products/products.tables.ts'
import type { VariantRow } from './variants/variants.tables.ts'

/** The current version of a row, or undefined when the org has no such row. */
export async function versionOf(q: Queryable, table: string, orgId: string, id: string): Promise<number | undefined> {
  const result = await q.query<{ version: number }>(`SELECT version FROM ${table} WHERE org_id = $1 AND id = $2`, [
    orgId,
    id,
  ])
  return result.rows[0]?.version
}

/** Which of `ids` are products of the org, with their active flag. */
export async function productFlags(
  q: Queryable,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, { isActive: boolean }>> {
  const result = await q.query<Pick<ProductRow, 'id' | 'is_active'>>(
    'SELECT id, is_active FROM products WHERE org_id = $1 AND id = ANY($2)',
    [orgId, ids],
  )
  return new Map(result.rows.map((r) => [r.id, { isActive: r.is_active }]))
}

/** Which of `ids` are variants of the org, with the product each belongs to. */
export async function variantOwners(
  q: Queryable,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, { productId: string; isActive: boolean }>> {
  const result = await q.query<Pick<VariantRow, 'id' | 'product_id' | 'is_active'>>(
    'SELECT id, product_id, is_active FROM product_variants WHERE org_id = $1 AND id = ANY($2)',
    [orgId, ids],
  )
  return new Map(result.rows.map((r) => [r.id, { productId: r.product_id, isActive: r.is_active }]))
}

/** The DELETE every catalog resource runs: only when `expectedVersion` is absent or current. False: no row went. */
export async function deleteVersioned(
  q: Queryable,
  table: string,
  orgId: string,
  id: string,
  expectedVersion: number | undefined,
): Promise<boolean> {
  const result = await q.query(
    `DELETE FROM ${table} WHERE org_id = $1 AND id = $2 AND ($3::int IS NULL OR version = $3)`,
    [orgId, id, expectedVersion ?? null],
  )
  return (result.rowCount ?? 0) > 0
}

/** One child column for `replacePositioned`: its name, its PostgreSQL element type and one value per child. */
interface ChildColumn {
  name: string
  type: 'text' | 'int' | 'bigint'
  values: readonly unknown[]
}

/**
 * Replaces all child rows of one parent (price list prices, bundle components, a product's modifier groups) with
 * the given ones, numbering `position` 1..n in the given order. One INSERT for any number of children.
 */
export async function replacePositioned(
  q: Queryable,
  table: string,
  parentColumn: string,
  orgId: string,
  parentId: string,
  columns: readonly ChildColumn[],
): Promise<void> {
  await q.query(`DELETE FROM ${table} WHERE org_id = $1 AND ${parentColumn} = $2`, [orgId, parentId])
  const names = columns.map((c) => c.name)
  const arrays = columns.map((c, i) => `$${i + 3}::${c.type}[]`)
  await q.query(
    `INSERT INTO ${table} (org_id, ${parentColumn}, ${names.join(', ')}, position)
     SELECT $1, $2, ${names.map((n) => `c.${n}`).join(', ')}, c.ord
     FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS c(${names.join(', ')}, ord)`,
    [orgId, parentId, ...columns.map((c) => c.values)],
  )
}

/** One row of a catalog table by id, within the org; `columns` come from the calling repo, never from input. */
export async function rowById<R>(
  q: Queryable,
  table: string,
  columns: string,
  orgId: string,
  id: string,
): Promise<R | undefined> {
  const result = await q.query<R>(`SELECT ${columns} FROM ${table} WHERE org_id = $1 AND id = $2`, [orgId, id])
  return result.rows[0]
}
