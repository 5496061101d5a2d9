import type { Queryable } from '../../platform/db/database.ts'
import { type AuditRow, auditColumns } from './audit.tables.ts'

export async function insertEntry(q: Queryable, orgId: string, row: Omit<AuditRow, 'occurred_at'>): Promise<void> {
  await q.prepared(
    'audit_insert',
    `INSERT INTO audit_log (id, org_id, actor_kind, actor_user_id, actor_client_id, register_id, action, record_type,
       record_id, changes, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      row.id,
      orgId,
      row.actor_kind,
      row.actor_user_id,
      row.actor_client_id,
      row.register_id,
      row.action,
      row.record_type,
      row.record_id,
      JSON.stringify(row.changes),
      row.request_id,
    ],
  )
}

interface EntryFilter {
  userId?: string
  action?: string
  recordId?: string
  from?: string
  to?: string
  /** Continue after this entry (newest first). */
  afterId?: string
  limit: number
}

/** Newest first: ids sort by the time they were made, so pages are keyset on the id. */
export async function listEntries(q: Queryable, orgId: string, f: EntryFilter): Promise<AuditRow[]> {
  const result = await q.query<AuditRow>(
    `SELECT ${auditColumns} FROM audit_log
     WHERE org_id = $1
       AND ($2::text IS NULL OR actor_user_id = $2)
       AND ($3::text IS NULL OR action = $3)
       AND ($4::text IS NULL OR record_id = $4)
       AND ($5::timestamptz IS NULL OR occurred_at >= $5)
       AND ($6::timestamptz IS NULL OR occurred_at < $6)
       AND ($7::text IS NULL OR id < $7)
     ORDER BY id DESC
     LIMIT $8`,
    [
      orgId,
      f.userId ?? null,
      f.action ?? null,
      f.recordId ?? null,
      f.from ?? null,
      f.to ?? null,
      f.afterId ?? null,
      f.limit,
    ],
  )
  return result.rows
}

/** Deletes up to `batch` entries older than `days`, through the owner's function (the app may not DELETE). */
export async function purgeOlderThan(q: Queryable, days: number, batch: number): Promise<number> {
  const result = await q.query<{ purged: number }>('SELECT audit_log_purge($1, $2) AS purged', [days, batch])
  return result.rows[0]?.purged ?? 0
}
