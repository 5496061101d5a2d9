import type { Queryable } from '../../../platform/db/database.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { replacePositioned, rowById } from '../catalog.repo.ts'
import { type BundleRow, bundleColumns, type ComponentRow } from './bundles.tables.ts'

export interface ComponentWrite {
  productId: string
  variantId: string | null
  quantity: number
}

/** Bundle writes of an org take turns, so two bundles can never be made components of each other at once. */
export async function lockBundles(q: Queryable, orgId: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${orgId}|bundles`])
}

export async function listBundles(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; productId?: string; limit: number },
): Promise<BundleRow[]> {
  const result = await q.query<BundleRow>(
    `SELECT ${bundleColumns} FROM bundles
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR product_id = $3)
     ORDER BY id LIMIT $4`,
    [orgId, f.afterId ?? null, f.productId ?? null, f.limit],
  )
  return result.rows
}

export async function bundleById(q: Queryable, orgId: string, id: string): Promise<BundleRow | undefined> {
  return rowById<BundleRow>(q, 'bundles', bundleColumns, orgId, id)
}

/** Components of the bundles whose id is in `ids`, in their stored order. */
export async function componentsOf(q: Queryable, orgId: string, ids: readonly string[]): Promise<ComponentRow[]> {
  const result = await q.query<ComponentRow>(
    `SELECT c.bundle_id, b.product_id AS bundle_product_id, c.product_id, c.variant_id, c.quantity
     FROM bundle_components c JOIN bundles b ON b.id = c.bundle_id AND b.org_id = c.org_id
     WHERE c.org_id = $1 AND b.id = ANY($2)
     ORDER BY c.bundle_id, c.position`,
    [orgId, ids],
  )
  return result.rows
}

/**
 * The components of these bundle products in their stored order, each with whether it is counted (its product and
 * variant both track inventory): what a sale of the bundle draws down from stock.
 */
export async function stockComponentsOf(
  q: Queryable,
  orgId: string,
  productIds: readonly string[],
): Promise<(Omit<ComponentRow, 'bundle_id'> & { counted: boolean })[]> {
  const result = await q.query<Omit<ComponentRow, 'bundle_id'> & { counted: boolean }>(
    `SELECT b.product_id AS bundle_product_id, c.product_id, c.variant_id, c.quantity,
       p.track_inventory AND COALESCE(v.track_inventory, true) AS counted
     FROM bundle_components c JOIN bundles b ON b.id = c.bundle_id AND b.org_id = c.org_id
       JOIN products p ON p.id = c.product_id AND p.org_id = c.org_id
       LEFT JOIN product_variants v ON v.id = c.variant_id AND v.org_id = c.org_id
     WHERE c.org_id = $1 AND b.product_id = ANY($2)
     ORDER BY c.bundle_id, c.position`,
    [orgId, productIds],
  )
  return result.rows
}

/** Which of the products are bundles themselves. */
export async function bundleProducts(q: Queryable, orgId: string, productIds: readonly string[]): Promise<Set<string>> {
  const result = await q.query<{ product_id: string }>(
    'SELECT product_id FROM bundles WHERE org_id = $1 AND product_id = ANY($2)',
    [orgId, productIds],
  )
  return new Set(result.rows.map((r) => r.product_id))
}

/** Whether the product is a component of any bundle. */
export async function isComponent(q: Queryable, orgId: string, productId: string): Promise<boolean> {
  const result = await q.query('SELECT 1 FROM bundle_components WHERE org_id = $1 AND product_id = $2 LIMIT 1', [
    orgId,
    productId,
  ])
  return (result.rowCount ?? 0) > 0
}

export async function insertBundle(q: Queryable, orgId: string, id: string, productId: string): Promise<BundleRow> {
  const result = await q.query<BundleRow>(
    `INSERT INTO bundles (id, org_id, product_id) VALUES ($1, $2, $3) RETURNING ${bundleColumns}`,
    [id, orgId, productId],
  )
  return result.rows[0]
}

export async function replaceComponents(
  q: Queryable,
  orgId: string,
  bundleId: string,
  components: readonly ComponentWrite[],
): Promise<void> {
  await replacePositioned(q, 'bundle_components', 'bundle_id', orgId, bundleId, [
    { name: 'product_id', type: 'text', values: components.map((c) => c.productId) },
    { name: 'variant_id', type: 'text', values: components.map((c) => c.variantId) },
    { name: 'quantity', type: 'int', values: components.map((c) => c.quantity) },
  ])
}

/** Bumps the version when the components change (they live in their own table). */
export async function touchBundle(
  q: Queryable,
  orgId: string,
  id: string,
  expectedVersion: number | undefined,
): Promise<BundleRow | undefined> {
  return updateVersioned<BundleRow>(q, 'bundles', bundleColumns, orgId, id, {}, expectedVersion)
}
