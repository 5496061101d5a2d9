import type { Queryable } from '../db/database.ts'

export interface OrgPlanRow {
  plan: 'starter' | 'growth' | 'pro' | 'enterprise'
  rate_limit_per_minute: number | null
  rate_limit_burst: number | null
}

export async function orgPlan(q: Queryable, orgId: string): Promise<OrgPlanRow | undefined> {
  const result = await q.prepared<OrgPlanRow>(
    'rate_limit_org_plan',
    'SELECT plan, rate_limit_per_minute, rate_limit_burst FROM orgs WHERE id = $1',
    [orgId],
  )
  return result.rows[0]
}

/**
 * A name for this deployment's buckets on a shared Redis: the first signing key, which every instance of one
 * database shares and no other database has (so separate deployments, and test databases, never collide).
 */
export async function deploymentName(q: Queryable): Promise<string> {
  const result = await q.query<{ kid: string }>('SELECT kid FROM signing_keys ORDER BY created_at, kid LIMIT 1')
  return result.rows[0]?.kid ?? 'default'
}
