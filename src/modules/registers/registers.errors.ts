import { createError } from '../../platform/errors/codes.ts'

/** The registers module's error codes (docs/api-conventions.md "Error codes"). */
export const RegisterErrors = {
  SHIFT_NOT_OPEN: createError('SHIFT_NOT_OPEN', 'conflict'),
  SHIFT_ALREADY_OPEN: createError('SHIFT_ALREADY_OPEN', 'conflict'),
} as const
