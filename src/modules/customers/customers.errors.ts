import { createError } from '../../platform/errors/codes.ts'

/** The customers module's error codes (docs/api-conventions.md "Error codes"). */
export const CustomerErrors = {
  CONTACT_TAKEN: createError('CUSTOMER_CONTACT_TAKEN', 'conflict'),
  CHANGED_CONCURRENTLY: createError('CUSTOMER_CHANGED_CONCURRENTLY', 'conflict'),
} as const
