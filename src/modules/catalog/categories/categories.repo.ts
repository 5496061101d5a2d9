import type { Queryable } from '../../../platform/db/database.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { rowById } from '../catalog.repo.ts'
import { type CategoryRow, categoryColumns } from './categories.tables.ts'

interface CategoryWrite {
  name?: string
  description?: string
  parentId?: string | null
  sortOrder?: number
  isActive?: boolean
}

interface CategoryFilter {
  after?: { sortOrder: number; id: string }
  /** A parent's id, or null for top-level categories; undefined for all. */
  parentId?: string | null
  isActive?: boolean
  limit: number
}

/** Keyset page ordered by (sort_order, id). */
export async function listCategories(q: Queryable, orgId: string, f: CategoryFilter): Promise<CategoryRow[]> {
  const result = await q.query<CategoryRow>(
    `SELECT ${categoryColumns} FROM categories
     WHERE org_id = $1
       AND ($2::int IS NULL OR (sort_order, id) > ($2::int, $3::text))
       AND (NOT $4::boolean OR parent_id IS NOT DISTINCT FROM $5::text)
       AND ($6::boolean IS NULL OR is_active = $6)
     ORDER BY sort_order, id
     LIMIT $7`,
    [
      orgId,
      f.after?.sortOrder ?? null,
      f.after?.id ?? null,
      f.parentId !== undefined,
      f.parentId ?? null,
      f.isActive ?? null,
      f.limit,
    ],
  )
  return result.rows
}

export async function categoryById(q: Queryable, orgId: string, id: string): Promise<CategoryRow | undefined> {
  return rowById<CategoryRow>(q, 'categories', categoryColumns, orgId, id)
}

/** The ids on the way from `id` up to the root, `id` first; stops after 1,000 steps (a tree is never that deep). */
export async function ancestorsOf(q: Queryable, orgId: string, id: string): Promise<string[]> {
  const result = await q.query<{ id: string }>(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM categories WHERE org_id = $1 AND id = $2
       UNION ALL
       SELECT c.id, c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
       WHERE c.org_id = $1 AND up.depth < 1000
     )
     SELECT id FROM up ORDER BY depth`,
    [orgId, id],
  )
  return result.rows.map((r) => r.id)
}

/** Tree moves of an org take turns, so two concurrent moves cannot close a loop that neither saw. */
export async function lockTree(q: Queryable, orgId: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${orgId}|category-tree`])
}

export async function insertCategory(
  q: Queryable,
  orgId: string,
  id: string,
  c: Required<CategoryWrite>,
): Promise<CategoryRow> {
  const result = await q.query<CategoryRow>(
    `INSERT INTO categories (id, org_id, name, description, parent_id, sort_order, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${categoryColumns}`,
    [id, orgId, c.name, c.description, c.parentId, c.sortOrder, c.isActive],
  )
  return result.rows[0]
}

export async function updateCategory(
  q: Queryable,
  orgId: string,
  id: string,
  c: CategoryWrite,
  expectedVersion: number | undefined,
): Promise<CategoryRow | undefined> {
  return updateVersioned<CategoryRow>(
    q,
    'categories',
    categoryColumns,
    orgId,
    id,
    { name: c.name, description: c.description, parent_id: c.parentId, sort_order: c.sortOrder, is_active: c.isActive },
    expectedVersion,
  )
}
