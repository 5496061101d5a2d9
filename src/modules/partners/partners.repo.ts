import type { Queryable } from '../../platform/db/database.ts'
import { type TenantRow, tenantColumns } from './partners.tables.ts'

export async function insertTenant(q: Queryable, t: Omit<TenantRow, 'created_at'>): Promise<TenantRow> {
  const result = await q.query<TenantRow>(
    `INSERT INTO partner_tenants (id, org_id, client_id, tenant_org_id, grant_id, name, plan, currency, owner_email, scopes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${tenantColumns}`,
    [t.id, t.org_id, t.client_id, t.tenant_org_id, t.grant_id, t.name, t.plan, t.currency, t.owner_email, t.scopes],
  )
  return result.rows[0]
}

/** The tenants one partner app provisioned, in creation order (keyset by id). */
export async function listTenants(
  q: Queryable,
  orgId: string,
  clientId: string,
  afterId: string | undefined,
  limit: number,
): Promise<TenantRow[]> {
  const result = await q.prepared<TenantRow>(
    'partner_tenants_list',
    `SELECT ${tenantColumns} FROM partner_tenants
     WHERE org_id = $1 AND client_id = $2 AND ($3::text IS NULL OR id > $3)
     ORDER BY id LIMIT $4`,
    [orgId, clientId, afterId ?? null, limit],
  )
  return result.rows
}

export async function tenantById(
  q: Queryable,
  orgId: string,
  clientId: string,
  id: string,
): Promise<TenantRow | undefined> {
  const result = await q.query<TenantRow>(
    `SELECT ${tenantColumns} FROM partner_tenants WHERE org_id = $1 AND client_id = $2 AND id = $3`,
    [orgId, clientId, id],
  )
  return result.rows[0]
}
