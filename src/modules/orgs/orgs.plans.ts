import type { Limit } from '../../platform/rate-limit/index.ts'

/** The plans an org can be on. */
export const PLANS = ['starter', 'growth', 'pro', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/** SPEC (docs/decisions.md) "Rate limits": requests per minute and burst by plan; Enterprise is set per org. */
export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, Limit> = {
  starter: { perMinute: 100, burst: 150 },
  growth: { perMinute: 500, burst: 750 },
  pro: { perMinute: 2000, burst: 3000 },
}

/** An org's rate limit: its plan's, or, on Enterprise, its own figures (Pro's without them, never less). */
export function limitOfPlan(org: {
  plan: Plan
  rate_limit_per_minute: number | null
  rate_limit_burst: number | null
}): Limit {
  if (org.plan !== 'enterprise') return PLAN_LIMITS[org.plan]
  const perMinute = org.rate_limit_per_minute ?? PLAN_LIMITS.pro.perMinute
  return { perMinute, burst: Math.max(org.rate_limit_burst ?? perMinute * 1.5, 1) }
}

/**
 * Automation runs an org may start per minute, by plan (docs/automations.md "Limits"): runs beyond it wait for a
 * later minute, never dropped; a run started by hand beyond it is refused.
 */
export const AUTOMATION_RUNS_PER_MINUTE: Record<Plan, number> = {
  starter: 60,
  growth: 300,
  pro: 1200,
  enterprise: 6000,
}
