import type { Limit } from './gcra.ts'
import { orgPlan } from './org-limits.repo.ts'
import { limitOf, PLAN_LIMITS } from './plans.ts'
import type { PlatformParts } from './store.ts'

/**
 * Plans change rarely; reading the org row on every request would cost a database round trip each. A second is
 * how soon every instance applies a change (`opentill set-org-limits`): one small read per org per second.
 */
const PLAN_CACHE_MS = 1_000

const lookups = new WeakMap<PlatformParts, (orgId: string) => Promise<Limit>>()

/** The per-org limit by plan, cached for a second per process runtime (shared by the REST and GraphQL guards). */
export function orgLimitsOf(runtime: PlatformParts): (orgId: string) => Promise<Limit> {
  let lookup = lookups.get(runtime)
  if (lookup) return lookup
  const plans = new Map<string, { limit: Limit; until: number }>()
  lookup = async (orgId: string) => {
    const cached = plans.get(orgId)
    if (cached && cached.until > Date.now()) return cached.limit
    const row = await runtime.database.read(orgId, (q) => orgPlan(q, orgId))
    const limit = row ? limitOf(row) : PLAN_LIMITS.starter
    if (plans.size > 10_000) plans.clear()
    plans.set(orgId, { limit, until: Date.now() + PLAN_CACHE_MS })
    return limit
  }
  lookups.set(runtime, lookup)
  return lookup
}
