/**
 * Money as the API speaks it: decimal amounts in the org's currency (4.5 is 4.50), which JavaScript numbers hold
 * exactly only as far as their minor units go. Keep sums in minor units (bigint) and convert at the edges.
 */

const exponents = new Map<string, number>()

/** Digits after the point of a currency (2 for USD, 0 for JPY, 3 for KWD), from the runtime's ISO 4217 data. */
export function exponentOf(currency: string): number {
  let digits = exponents.get(currency)
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    exponents.set(currency, digits)
  }
  return digits
}

/**
 * An amount of the API (a number or a decimal string) in minor units; refuses one finer than the currency allows
 * (1.001 USD), as the server does, rather than round it.
 */
export function toMinor(amount: number | string, currency: string): bigint {
  // A number's shortest decimal form (4.5 -> "4.5"); one in exponent form (1e21, 1e-7) is refused below.
  const text = typeof amount === 'number' ? String(amount) : amount.trim()
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) throw new RangeError(`${amount} is not an amount`)
  const [, sign, whole, fraction = ''] = match
  const digits = exponentOf(currency)
  if (fraction.slice(digits).replace(/0+$/, '') !== '')
    throw new RangeError(`${amount} has more than ${digits} decimals for ${currency}`)
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.slice(0, digits).padEnd(digits, '0') || '0')
  return sign === '-' ? -minor : minor
}

/** Minor units as the API takes an amount: a number with the currency's decimals (450n USD is 4.5). */
export function fromMinor(minor: bigint, currency: string): number {
  const digits = exponentOf(currency)
  const negative = minor < 0n
  const abs = negative ? -minor : minor
  const scale = 10n ** BigInt(digits)
  const text = `${abs / scale}${digits > 0 ? `.${(abs % scale).toString().padStart(digits, '0')}` : ''}`
  return Number(negative ? `-${text}` : text)
}

/** Sums amounts of the API exactly (in minor units) and answers the total as the API writes it. */
export function sum(amounts: readonly (number | string)[], currency: string): number {
  return fromMinor(
    amounts.reduce<bigint>((total, a) => total + toMinor(a, currency), 0n),
    currency,
  )
}
