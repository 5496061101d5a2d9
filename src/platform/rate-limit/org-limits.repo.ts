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
