/**
 * A code (voucher, gift card) as a reader without the right to use it sees it: all but its last four characters
 * hidden, and all of a code shorter than 8, which four characters would nearly give away.
 */
export function maskedCode(code: string): string {
  const shown = code.length >= 8 ? 4 : 0
  return '*'.repeat(code.length - shown) + code.slice(code.length - shown)
}

/** A copy of JSON data with the value of every `code` and `voucher_code` key masked, at any depth. */
export function withCodesMasked(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(withCodesMasked)
  if (data === null || typeof data !== 'object') return data
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      (key === 'code' || key === 'voucher_code') && typeof value === 'string'
        ? maskedCode(value)
        : withCodesMasked(value),
    ]),
  )
}
