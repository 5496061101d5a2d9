import { invalid } from '../errors/app-error.ts'

/** A tip is taken only when the store takes tips (settings.tips.enabled): else a 422 on `field`. */
export function assertTipsTaken(enabled: boolean, field = 'tip'): void {
  if (!enabled) throw invalid(field, 'is not taken: tips are turned off in the store settings', 'not_enabled')
}

/**
 * The store's cap on a tip (settings.tips.max_percent): an order whose total before the tip is `totalBeforeTip` takes
 * a tip of at most that share of it, in minor units rounded down so the cap is never exceeded; else a 422 on `field`.
 */
export function assertWithinCap(tip: bigint, totalBeforeTip: bigint, maxPercent: number, field: string): void {
  if (tip * 100n > totalBeforeTip * BigInt(maxPercent))
    throw invalid(field, `is more than the store's cap of ${maxPercent}% of the order's total`, 'out_of_range')
}
