import { invalid } from '../../platform/errors/app-error.ts'

/** A till PIN: 4 to 6 digits, neither one digit repeated nor a run up or down (1234, 987654). */
export function assertAcceptablePin(pin: string): void {
  if (!/^\d{4,6}$/.test(pin)) throw invalid('pin', 'must be 4 to 6 digits', 'invalid_format')
  const digits = [...pin].map(Number)
  const steps = new Set(digits.slice(1).map((d, i) => d - digits[i]))
  if (steps.size === 1 && [0, 1, -1].includes([...steps][0]!))
    throw invalid('pin', 'is too easy to guess (one digit repeated, or a run)', 'too_simple')
}
