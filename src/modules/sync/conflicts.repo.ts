import type { Queryable } from '../../platform/db/database.ts'

/** A sync_conflicts row (db/migrations/0149_offline_sales.sql). */
export interface ConflictRow {
  id: string
  order_id: string
  client_sale_id: string
  code: string
  message: string
  details: Record<string, unknown>
  created_at: Date
  resolved_at: Date | null
  resolved_by: string | null
  resolution: string | null
}

const columns = 'id, order_id, client_sale_id, code, message, details, created_at, resolved_at, resolved_by, resolution'

export async function insertConflicts(
  q: Queryable,
  orgId: string,
  rows: readonly {
    id: string
    orderId: string
    clientSaleId: string
    code: string
    message: string
    details: object
  }[],
): Promise<void> {
  if (rows.length === 0) return
  await q.query(
    `INSERT INTO sync_conflicts (org_id, id, order_id, client_sale_id, code, message, details)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])`,
    [
      orgId,
      rows.map((r) => r.id),
      rows.map((r) => r.orderId),
      rows.map((r) => r.clientSaleId),
      rows.map((r) => r.code),
      rows.map((r) => r.message),
      rows.map((r) => JSON.stringify(r.details)),
    ],
  )
}

export async function conflictsOfOrders(
  q: Queryable,
  orgId: string,
  orderIds: readonly string[],
): Promise<ConflictRow[]> {
  const result = await q.query<ConflictRow>(
    `SELECT ${columns} FROM sync_conflicts WHERE org_id = $1 AND order_id = ANY($2) ORDER BY id`,
    [orgId, orderIds],
  )
  return result.rows
}

export async function listConflicts(
  q: Queryable,
  orgId: string,
  f: { resolved: boolean; afterId: string | null; limit: number },
): Promise<ConflictRow[]> {
  const result = await q.query<ConflictRow>(
    `SELECT ${columns} FROM sync_conflicts
     WHERE org_id = $1 AND (resolved_at IS NOT NULL) = $2 AND ($3::text IS NULL OR id > $3) ORDER BY id LIMIT $4`,
    [orgId, f.resolved, f.afterId, f.limit],
  )
  return result.rows
}

export async function resolveConflict(
  q: Queryable,
  orgId: string,
  id: string,
  by: string,
  resolution: string,
): Promise<ConflictRow | undefined> {
  const result = await q.query<ConflictRow>(
    `UPDATE sync_conflicts SET resolved_at = now(), resolved_by = $3, resolution = $4
     WHERE org_id = $1 AND id = $2 AND resolved_at IS NULL RETURNING ${columns}`,
    [orgId, id, by, resolution],
  )
  return result.rows[0]
}
