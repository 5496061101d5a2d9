import type { Queryable } from '../../platform/db/database.ts'
import { type OrgRow, orgColumns } from './orgs.tables.ts'
import type { Settings } from './settings.schemas.ts'

export async function insertOrg(q: Queryable, org: Pick<OrgRow, 'id' | 'name' | 'plan' | 'currency'>): Promise<OrgRow> {
  const result = await q.query<OrgRow>(
    `INSERT INTO orgs (id, name, plan, currency) VALUES ($1, $2, $3, $4) RETURNING ${orgColumns}`,
    [org.id, org.name, org.plan, org.currency],
  )
  return result.rows[0]
}

export async function orgById(q: Queryable, id: string): Promise<OrgRow | undefined> {
  const result = await q.prepared<OrgRow>('org_by_id', `SELECT ${orgColumns} FROM orgs WHERE id = $1`, [id])
  return result.rows[0]
}

/** What the org's rate limit follows; read on every request's cache miss, so a prepared statement. */
export async function rateLimitSettings(
  q: Queryable,
  id: string,
): Promise<Pick<OrgRow, 'plan' | 'rate_limit_per_minute' | 'rate_limit_burst'> | undefined> {
  const result = await q.prepared<Pick<OrgRow, 'plan' | 'rate_limit_per_minute' | 'rate_limit_burst'>>(
    'org_rate_limit_settings',
    'SELECT plan, rate_limit_per_minute, rate_limit_burst FROM orgs WHERE id = $1',
    [id],
  )
  return result.rows[0]
}

/** An org's own rate limit (SPEC's "custom"): the enterprise plan with these figures. */
export async function setCustomLimits(q: Queryable, id: string, perMinute: number, burst: number) {
  const result = await q.query<OrgRow>(
    `UPDATE orgs SET plan = 'enterprise', rate_limit_per_minute = $2, rate_limit_burst = $3, version = version + 1,
       updated_at = now() WHERE id = $1 RETURNING ${orgColumns}`,
    [id, perMinute, burst],
  )
  return result.rows[0]
}

export async function lockOrg(q: Queryable, id: string): Promise<OrgRow | undefined> {
  const result = await q.query<OrgRow>(`SELECT ${orgColumns} FROM orgs WHERE id = $1 FOR UPDATE`, [id])
  return result.rows[0]
}

export async function updateSettings(
  q: Queryable,
  id: string,
  s: Omit<Settings, 'currency' | 'version' | 'updated_at'>,
) {
  const result = await q.query<OrgRow>(
    `UPDATE orgs SET name = $2, phone = $3, address = $4, timezone = $5, receipt_header = $6, receipt_footer = $7,
       prices_include_tax = $8, tips = $9, manager_approval = $10, version = version + 1, updated_at = now()
     WHERE id = $1 RETURNING ${orgColumns}`,
    [
      id,
      s.name,
      s.phone,
      JSON.stringify(s.address),
      s.timezone,
      s.receipt_header,
      s.receipt_footer,
      s.prices_include_tax,
      JSON.stringify(s.tips),
      JSON.stringify(s.manager_approval),
    ],
  )
  return result.rows[0]
}
