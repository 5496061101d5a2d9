import { createError } from '../../platform/errors/codes.ts'

/** The auth module's error codes (docs/api-conventions.md "Error codes"). */
export const AuthErrors = {
  /** Sign-in e-mails are unique across orgs. */
  EMAIL_TAKEN: createError('EMAIL_TAKEN', 'conflict'),
} as const
