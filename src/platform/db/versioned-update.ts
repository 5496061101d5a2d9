import type { Queryable } from './database.ts'

/**
 * The UPDATE every PATCH runs (optimistic concurrency, docs/decisions.md): sets the given columns (undefined ones are left alone) when
 * `expectedVersion` is absent or current, bumps `version` and `updated_at`. Undefined result: no row matched, so
 * the caller tells a missing row from a stale version. Column names come from the repos, never from input.
 */
export async function updateVersioned<R>(
  q: Queryable,
  table: string,
  columns: string,
  orgId: string,
  id: string,
  values: Record<string, unknown>,
  expectedVersion: number | undefined,
): Promise<R | undefined> {
  const params: unknown[] = [orgId, id, expectedVersion ?? null]
  const sets: string[] = []
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue
    params.push(value)
    sets.push(`${column} = $${params.length}`)
  }
  const result = await q.query<R>(
    `UPDATE ${table} SET ${[...sets, 'version = version + 1', 'updated_at = now()'].join(', ')}
     WHERE org_id = $1 AND id = $2 AND ($3::int IS NULL OR version = $3)
     RETURNING ${columns}`,
    params,
  )
  return result.rows[0]
}
