/**
 * GCRA (generic cell rate algorithm), the exact form of docs/decisions.md's token bucket: it refills at `perMinute`,
 * holds at most `burst`, and needs one stored number per key, the theoretical arrival time (TAT).
 */
export interface Limit {
  perMinute: number
  burst: number
}

/** Each org's request limit, as the orgs module says (the platform reads no module's tables). */
export type OrgLimitOf = (orgId: string) => Promise<Limit>

export interface Decision {
  allowed: boolean
  limit: number
  /** Whole tokens left after this request. */
  remaining: number
  /** Milliseconds until one token is back (0 when allowed). */
  retryAfterMs: number
}

interface GcraStep {
  decision: Decision
  /** The TAT to store (unchanged when refused). */
  tat: number
}

function emissionIntervalMs(limit: Limit): number {
  return 60_000 / limit.perMinute
}

/** One request at `now` against the stored TAT (or none). */
export function gcra(limit: Limit, storedTat: number | null, now: number): GcraStep {
  const interval = emissionIntervalMs(limit)
  const capacity = limit.burst * interval
  const tat = Math.max(storedTat ?? now, now)
  const next = tat + interval
  if (next - now > capacity) {
    return {
      decision: { allowed: false, limit: limit.perMinute, remaining: 0, retryAfterMs: next - now - capacity },
      tat,
    }
  }
  return {
    decision: {
      allowed: true,
      limit: limit.perMinute,
      remaining: Math.floor((capacity - (next - now)) / interval),
      retryAfterMs: 0,
    },
    tat: next,
  }
}

/** Where TATs live: process memory, or Redis so every instance shares one bucket per key. */
export interface RateLimitStore {
  take(key: string, limit: Limit): Promise<Decision>
}
