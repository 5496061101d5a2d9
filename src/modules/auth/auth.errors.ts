import { createError } from '../../platform/errors/codes.ts'

/** The auth module's error codes (docs/api-conventions.md "Error codes"). */
export const AuthErrors = {
  /** A person's e-mail is theirs across OpenTill, and a user's unique in an org. */
  EMAIL_TAKEN: createError('EMAIL_TAKEN', 'conflict'),
  /** The e-mail and password sign in to several stores: the problem lists them (`orgs`); ask again with org_id. */
  ORG_REQUIRED: createError('ORG_REQUIRED', 'conflict'),
  /** A manager manages staff only; nobody acts through a deactivated user (docs/people-and-settings.md). */
  ROLE_NOT_ALLOWED: createError('ROLE_NOT_ALLOWED', 'forbidden'),
  /** An org always keeps at least one active owner. */
  LAST_OWNER: createError('LAST_OWNER', 'conflict'),
  /** A void, a refund or a large discount by staff needs a manager's PIN on the same till (or a manager). */
  APPROVAL_REQUIRED: createError('APPROVAL_REQUIRED', 'forbidden'),
  /** Twenty wrong PINs in a row locked the till until a manager unlocks it. */
  DEVICE_LOCKED: createError('DEVICE_LOCKED', 'forbidden'),
  /** Five wrong PINs locked this user on this till for 15 minutes. */
  PIN_LOCKED: createError('PIN_LOCKED', 'rate-limited'),
} as const
