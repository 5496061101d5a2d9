import { invalid } from '../errors/app-error.ts'

/**
 * The one money module: amounts are integer minor units (`bigint`) beside an ISO 4217 currency. Conversion to
 * and from the API's decimal numbers and all rounding (half-up, away from zero) happen here and nowhere else.
 */
const exponents = new Map<string, number>()

export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency)
  if (exponent === undefined) {
    exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    exponents.set(currency, exponent)
  }
  return exponent
}

export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false
  return Intl.supportedValuesOf('currency').includes(code)
}

/**
 * A JSON decimal number to minor units, exactly: its shortest decimal text is read digit by digit, so 19.99
 * is 1999 and never 1998.9999. More decimals than the currency has is a 422 naming `field`.
 */
export function toMinor(
  amount: number,
  currency: string,
  field: string,
  options: { allowNegative?: boolean } = {},
): bigint {
  if (!Number.isFinite(amount)) throw invalid(field, 'must be a finite number', 'invalid_amount')
  if (amount < 0 && !options.allowNegative) throw invalid(field, 'must not be negative', 'out_of_range')
  const exponent = currencyExponent(currency)
  const text = Math.abs(amount).toString()
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) throw invalid(field, 'is too large or too precise', 'invalid_amount')
  const decimals = match[2] ?? ''
  if (decimals.length > exponent) {
    throw invalid(field, `has more than ${exponent} decimal places for ${currency}`, 'too_precise')
  }
  const minor = BigInt(match[1] + decimals.padEnd(exponent, '0'))
  if (minor > 10n ** 15n) throw invalid(field, 'is too large', 'out_of_range')
  return amount < 0 ? -minor : minor
}

/**
 * A JSON decimal number as an integer scaled by 10^digits, exactly (`toScaled(1.25, 4)` is 12500n); more decimals
 * than `digits` is a 422 naming `field`.
 */
export function toScaled(value: number, digits: number, field: string): bigint {
  if (!Number.isFinite(value) || value < 0)
    throw invalid(field, 'must be a finite number, not negative', 'out_of_range')
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.toString())
  if (!match) throw invalid(field, 'is too large or too precise', 'invalid_amount')
  const decimals = match[2] ?? ''
  if (decimals.length > digits) throw invalid(field, `has more than ${digits} decimal places`, 'too_precise')
  return BigInt(match[1] + decimals.padEnd(digits, '0'))
}

/** Minor units to the API's decimal number (the division of an integer by a power of ten prints exactly). */
export function toMajor(minor: bigint | number | string, currency: string): number {
  return Number(minor) / 10 ** currencyExponent(currency)
}

/** Minor units as the till shows them, with the currency's decimals: 1250n EUR is "12.50". */
export function formatMoney(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency)
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0')
  const whole = digits.slice(0, digits.length - exponent)
  const text = exponent > 0 ? `${whole}.${digits.slice(-exponent)}` : whole
  return negative ? `-${text}` : text
}

/** numerator / denominator rounded half-up (away from zero on .5), in integers. */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive')
  const negative = numerator < 0n
  const abs = negative ? -numerator : numerator
  const quotient = (abs * 2n + denominator) / (denominator * 2n)
  return negative ? -quotient : quotient
}

/** Splits `total` over `weights` so the parts sum to `total` exactly (largest remainder). */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n)
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0n))
  const parts = weights.map((w, i) => ({ i, part: (total * w) / sum, rest: (total * w) % sum }))
  let remainder = total - parts.reduce((a, p) => a + p.part, 0n)
  // The largest remainders take the units the division left over, one each (ties: the earlier weight).
  const byRemainder = [...parts].sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.i - b.i))
  for (const p of byRemainder) {
    if (remainder === 0n) break
    p.part += remainder > 0n ? 1n : -1n
    remainder += remainder > 0n ? -1n : 1n
  }
  return parts.map((p) => p.part)
}

/** Splits a refund over captured payments, newest first, never more than each has left to refund. */
export function allocateRefund(
  amount: bigint,
  refundable: readonly { id: string; left: bigint }[],
): { id: string; amount: bigint }[] {
  const parts: { id: string; amount: bigint }[] = []
  let rest = amount
  for (const p of [...refundable].reverse()) {
    if (rest === 0n) break
    const take = p.left < rest ? p.left : rest
    if (take > 0n) parts.push({ id: p.id, amount: take })
    rest -= take
  }
  if (rest > 0n) throw new RangeError('refund exceeds what the payments can return')
  return parts
}

/**
 * The pairs of two lists of the same length (the lines and their amounts): refuses lists of different lengths
 * rather than pair an amount with nothing.
 */
export function zip<A, B>(a: readonly A[], b: readonly B[]): [A, B][] {
  if (a.length !== b.length) throw new RangeError(`cannot pair ${a.length} items with ${b.length}`)
  return a.map((x, i) => [x, b[i] as B])
}
