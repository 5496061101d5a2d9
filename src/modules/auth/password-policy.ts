import { createRequire } from 'node:module'
import { AppError } from '../../platform/errors/app-error.ts'

/** Shortest password accepted (NIST SP 800-63B asks for 8 at least; invitations always asked for 10). */
const MIN_PASSWORD = 10

// zxcvbn-ts' list of the ~49,000 most common passwords (lower case), loaded once, on first use.
let common: Set<string> | undefined
function commonPasswords(): Set<string> {
  if (!common) {
    const require = createRequire(import.meta.url)
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: { passwords: string[] } }
    common = new Set(dictionary.passwords)
  }
  return common
}

/**
 * Refuses a password too short or found in a list of common passwords (NIST SP 800-63B §5.1.1.2), as a 422 on
 * `field`.
 */
export function assertAcceptablePassword(password: string, field = 'password'): void {
  const refuse = (message: string, code: string) =>
    new AppError('validation', `the password ${message}`, { errors: [{ field, message, code }] })
  if (password.length < MIN_PASSWORD) throw refuse(`must be at least ${MIN_PASSWORD} characters`, 'too_short')
  if (commonPasswords().has(password.toLowerCase()))
    throw refuse('is one of the most common passwords; choose another', 'too_common')
}
