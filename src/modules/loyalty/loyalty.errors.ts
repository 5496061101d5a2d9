import { invalid } from '../../platform/errors/app-error.ts'
import { createError } from '../../platform/errors/codes.ts'

/** The loyalty module's error codes (docs/api-conventions.md "Error codes"). */
export const LoyaltyErrors = {
  ACTIVE_PROGRAM_EXISTS: createError('LOYALTY_ACTIVE_PROGRAM_EXISTS', 'conflict'),
  NO_ACTIVE_PROGRAM: createError('LOYALTY_NO_ACTIVE_PROGRAM', 'conflict'),
  INSUFFICIENT_POINTS: createError('INSUFFICIENT_POINTS', 'conflict'),
  NOTHING_TO_REDEEM: createError('LOYALTY_NOTHING_TO_REDEEM', 'conflict'),
  /** A voucher reward whose campaign is a draft, paused or ended. */
  REWARD_UNAVAILABLE: createError('LOYALTY_REWARD_UNAVAILABLE', 'conflict'),
  /**
   * Answered by orders when a reward goes on an order (orders imports loyalty, so loyalty cannot import orders'
   * catalog): the same codes, named here for the redeem route's OpenAPI.
   */
  ORDER_NOT_OPEN: createError('ORDER_NOT_OPEN', 'conflict'),
  ORDER_ALREADY_PAID: createError('ORDER_ALREADY_PAID', 'conflict'),
  invalidTier: (field: string, message: string) => invalid(field, message, 'invalid_tier'),
} as const
