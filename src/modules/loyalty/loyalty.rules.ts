import { currencyExponent } from '../../platform/money/money.ts'
import type { ProgramRow } from './loyalty.tables.ts'

/** The points arithmetic, pure (test/unit/loyalty-rules.test.ts). Multipliers are × 10,000 (1.5× is 15000). */

type Rounding = ProgramRow['rounding']
export const E4 = 10_000n

/** a / b rounded as the program says, for a ≥ 0 and b > 0. */
function divide(a: bigint, b: bigint, rounding: Rounding): bigint {
  const q = a / b
  const r = a % b
  if (r === 0n) return q
  if (rounding === 'ceil') return q + 1n
  if (rounding === 'nearest') return r * 2n >= b ? q + 1n : q
  return q
}

/**
 * Points for an amount spent: `spentMinor` in the currency's minor units, `pointsPerUnitE4` points per major unit
 * × 10,000, `multiplierE4` the tier's (and any campaign's) multiplier × 10,000; rounded once, at the end.
 */
export function pointsFor(
  spentMinor: bigint,
  currency: string,
  pointsPerUnitE4: bigint,
  multiplierE4: bigint,
  rounding: Rounding,
): bigint {
  if (spentMinor <= 0n) return 0n
  const unit = 10n ** BigInt(currencyExponent(currency))
  return divide(spentMinor * pointsPerUnitE4 * multiplierE4, unit * E4 * E4, rounding)
}

export interface Tier {
  name: string
  /** Lifetime points, or lifetime spend in minor units, from which a member holds the tier. */
  threshold: bigint
  multiplierE4: bigint
  benefits: string[]
}

/** The highest tier whose threshold `value` has reached, or null below the first. */
export function tierAt(tiers: readonly Tier[], value: bigint): Tier | null {
  let held: Tier | null = null
  for (const t of [...tiers].sort((a, b) => (a.threshold < b.threshold ? -1 : 1))) if (value >= t.threshold) held = t
  return held
}

/** The next tier up and what is missing to reach it, or null at the top. */
export function nextTier(tiers: readonly Tier[], value: bigint): { tier: Tier; remaining: bigint } | null {
  const next = [...tiers].sort((a, b) => (a.threshold < b.threshold ? -1 : 1)).find((t) => t.threshold > value)
  return next ? { tier: next, remaining: next.threshold - value } : null
}

interface Lot {
  id: string
  remaining: bigint
}

/** Takes `points` from lots in the order given (oldest expiry first); null when they do not hold enough. */
export function takeFromLots(lots: readonly Lot[], points: bigint): { id: string; take: bigint }[] | null {
  const taken: { id: string; take: bigint }[] = []
  let rest = points
  for (const lot of lots) {
    if (rest === 0n) break
    const take = lot.remaining < rest ? lot.remaining : rest
    if (take > 0n) taken.push({ id: lot.id, take })
    rest -= take
  }
  return rest === 0n ? taken : null
}

/**
 * What a refund takes back of an order's points: the share of the refunded amount, cumulative, so refunds in any
 * split take back exactly what the order earned once everything is refunded.
 */
export function pointsToTakeBack(earned: bigint, reversed: bigint, refundedTotal: bigint, orderTotal: bigint): bigint {
  if (orderTotal <= 0n) return earned - reversed
  const refunded = refundedTotal > orderTotal ? orderTotal : refundedTotal
  return (earned * refunded) / orderTotal - reversed
}

/**
 * The points for the share `taken` of something worth `whole` that costs `price` points: rounded up, so no share is
 * ever free (a 500-point 5.00 reward on a 3.00 order: 300 points).
 */
export function pointsForShare(price: bigint, taken: bigint, whole: bigint): bigint {
  return (price * taken + whole - 1n) / whole
}
