/**
 * The store's cap on a tip (settings.tips.max_percent): the largest tip an order whose total before the tip is
 * `totalBeforeTip` may take, in minor units, rounded down so the cap is never exceeded.
 */
export function tipCap(totalBeforeTip: bigint, maxPercent: number): bigint {
  return (totalBeforeTip * BigInt(maxPercent)) / 100n
}
