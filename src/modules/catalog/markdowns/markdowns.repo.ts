import type { Queryable } from '../../../platform/db/database.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { rowById } from '../catalog.repo.ts'
import { type MarkdownRow, markdownColumns, type TargetRow } from './markdowns.tables.ts'

interface MarkdownWrite {
  name?: string
  kind?: MarkdownRow['kind']
  value?: bigint
  categoryId?: string | null
  startsAt?: Date | null
  endsAt?: Date | null
  isActive?: boolean
}

export async function listMarkdowns(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; productId?: string; categoryId?: string; isActive?: boolean; limit: number },
): Promise<MarkdownRow[]> {
  const result = await q.query<MarkdownRow>(
    `SELECT ${markdownColumns} FROM markdowns m
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2)
       AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM markdown_products mp WHERE mp.org_id = $1 AND mp.markdown_id = m.id AND mp.product_id = $3))
       AND ($4::text IS NULL OR category_id = $4)
       AND ($5::boolean IS NULL OR is_active = $5)
     ORDER BY id LIMIT $6`,
    [orgId, f.afterId ?? null, f.productId ?? null, f.categoryId ?? null, f.isActive ?? null, f.limit],
  )
  return result.rows
}

export async function markdownById(q: Queryable, orgId: string, id: string): Promise<MarkdownRow | undefined> {
  return rowById<MarkdownRow>(q, 'markdowns', markdownColumns, orgId, id)
}

export async function targetsOf(q: Queryable, orgId: string, ids: readonly string[]): Promise<TargetRow[]> {
  const result = await q.query<TargetRow>(
    'SELECT markdown_id, product_id FROM markdown_products WHERE org_id = $1 AND markdown_id = ANY($2) ORDER BY markdown_id, product_id',
    [orgId, ids],
  )
  return result.rows
}

export async function insertMarkdown(
  q: Queryable,
  orgId: string,
  id: string,
  m: Required<MarkdownWrite>,
): Promise<MarkdownRow> {
  const result = await q.query<MarkdownRow>(
    `INSERT INTO markdowns (id, org_id, name, kind, value, category_id, starts_at, ends_at, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${markdownColumns}`,
    [id, orgId, m.name, m.kind, m.value.toString(), m.categoryId, m.startsAt, m.endsAt, m.isActive],
  )
  return result.rows[0]
}

export async function updateMarkdown(
  q: Queryable,
  orgId: string,
  id: string,
  m: MarkdownWrite,
  expectedVersion: number | undefined,
) {
  return updateVersioned<MarkdownRow>(
    q,
    'markdowns',
    markdownColumns,
    orgId,
    id,
    {
      name: m.name,
      kind: m.kind,
      value: m.value?.toString(),
      category_id: m.categoryId,
      starts_at: m.startsAt,
      ends_at: m.endsAt,
      is_active: m.isActive,
    },
    expectedVersion,
  )
}

export async function replaceTargets(
  q: Queryable,
  orgId: string,
  id: string,
  productIds: readonly string[],
): Promise<void> {
  await q.query('DELETE FROM markdown_products WHERE org_id = $1 AND markdown_id = $2', [orgId, id])
  await q.query('INSERT INTO markdown_products (org_id, markdown_id, product_id) SELECT $1, $2, unnest($3::text[])', [
    orgId,
    id,
    productIds,
  ])
}

export async function categoryExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await q.query('SELECT 1 FROM categories WHERE org_id = $1 AND id = $2', [orgId, id])
  return (result.rowCount ?? 0) > 0
}
