import type { Queryable } from '../../platform/db/database.ts'
import { type IntegrationRow, integrationColumns } from './integrations.tables.ts'

export async function insertIntegration(
  q: Queryable,
  orgId: string,
  i: { id: string; name: string; type: string; config: Record<string, unknown> },
): Promise<IntegrationRow> {
  const result = await q.query<IntegrationRow>(
    `INSERT INTO integrations (id, org_id, name, type, config) VALUES ($1, $2, $3, $4, $5) RETURNING ${integrationColumns}`,
    [i.id, orgId, i.name, i.type, JSON.stringify(i.config)],
  )
  return result.rows[0]
}

export async function listIntegrations(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; type?: string; limit: number },
): Promise<IntegrationRow[]> {
  const result = await q.query<IntegrationRow>(
    `SELECT ${integrationColumns} FROM integrations
     WHERE org_id = $1 AND uninstalled_at IS NULL AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR type = $3)
     ORDER BY id LIMIT $4`,
    [orgId, f.afterId ?? null, f.type ?? null, f.limit],
  )
  return result.rows
}

export async function integrationById(q: Queryable, orgId: string, id: string): Promise<IntegrationRow | undefined> {
  const result = await q.query<IntegrationRow>(
    `SELECT ${integrationColumns} FROM integrations WHERE org_id = $1 AND id = $2 AND uninstalled_at IS NULL`,
    [orgId, id],
  )
  return result.rows[0]
}

/** Hides an installed integration for good; false when there was none (or it was already uninstalled). */
export async function uninstallIntegration(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await q.query(
    `UPDATE integrations SET uninstalled_at = now(), version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND uninstalled_at IS NULL`,
    [orgId, id],
  )
  return (result.rowCount ?? 0) > 0
}
