/**
 * Percentages, in one unit everywhere (tax rates, discounts, campaign rules): percent × 10,000 as an integer, so
 * 12.5 % is 125,000 and 8.875 % is 88,750. Arithmetic on money with them stays in integers.
 */

/** 100 % in this unit. */
export const PERCENT_E4 = 1_000_000n

/** A decimal percentage (`15`, `12.5`, `8.875`, up to 4 decimals) as percent × 10,000; null when too precise. */
export function percentToE4(percent: number): number | null {
  const text = percent.toString()
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(text)
  if (!match) return null
  return Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'))
}

export function e4ToPercent(e4: number): number {
  return e4 / 10_000
}
