import { createError } from '../../platform/errors/codes.ts'

/** The gift-cards module's error codes (docs/api-conventions.md "Error codes"). */
export const GiftCardErrors = {
  CODE_UNAVAILABLE: createError('GIFT_CARD_CODE_UNAVAILABLE', 'conflict'),
  DISABLED: createError('GIFT_CARD_DISABLED', 'conflict'),
  NOT_ACTIVE: createError('GIFT_CARD_NOT_ACTIVE', 'conflict'),
  INSUFFICIENT_BALANCE: createError('GIFT_CARD_INSUFFICIENT_BALANCE', 'conflict'),
} as const
