import type { Limit } from './gcra.ts'
import type { OrgPlanRow } from './org-limits.repo.ts'

/** SPEC (docs/decisions.md) "Rate limits": requests per minute and burst by plan; Enterprise is set per org. */
export const PLAN_LIMITS: Record<Exclude<OrgPlanRow['plan'], 'enterprise'>, Limit> = {
  starter: { perMinute: 100, burst: 150 },
  growth: { perMinute: 500, burst: 750 },
  pro: { perMinute: 2000, burst: 3000 },
}

/** An enterprise org without its own figures gets Pro's, never less. */
export function limitOf(row: OrgPlanRow): Limit {
  if (row.plan !== 'enterprise') return PLAN_LIMITS[row.plan]
  const perMinute = row.rate_limit_per_minute ?? PLAN_LIMITS.pro.perMinute
  return { perMinute, burst: Math.max(row.rate_limit_burst ?? perMinute * 1.5, 1) }
}

/** Login and token endpoints: per account (e-mail or client id) and per address (docs/decisions.md "Rate limits", issue 3 §7). */
export const CREDENTIAL_LIMITS = {
  loginPerAccount: { perMinute: 5, burst: 10 },
  loginPerAddress: { perMinute: 60, burst: 120 },
  tokenPerClient: { perMinute: 120, burst: 240 },
  tokenPerAddress: { perMinute: 300, burst: 600 },
  /** GraphQL requests without a valid token: they can only read the refusal, so a few suffice. */
  anonymousGraphqlPerAddress: { perMinute: 60, burst: 120 },
} satisfies Record<string, Limit>
