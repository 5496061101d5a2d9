import { createError } from '../../platform/errors/codes.ts'

/** The orders module's error codes (docs/api-conventions.md "Error codes"). */
export const OrderErrors = {
  /** Same code as campaigns' own refusal at claim time: to the till, one cause. */
  VOUCHER_USED_UP: createError('VOUCHER_USED_UP', 'conflict'),
} as const
