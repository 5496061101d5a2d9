import { createError } from '../../platform/errors/codes.ts'

/** The orders module's error codes (docs/api-conventions.md "Error codes"). */
export const OrderErrors = {
  /** Same code as campaigns' own refusal at claim time: to the till, one cause. */
  VOUCHER_USED_UP: createError('VOUCHER_USED_UP', 'conflict'),
  ILLEGAL_MOVE: createError('ORDER_ILLEGAL_MOVE', 'conflict'),
  NOT_OPEN: createError('ORDER_NOT_OPEN', 'conflict'),
  NOT_PAID: createError('ORDER_NOT_PAID', 'conflict'),
  HAS_PAYMENTS: createError('ORDER_HAS_PAYMENTS', 'conflict'),
  ALREADY_PAID: createError('ORDER_ALREADY_PAID', 'conflict'),
  REFUND_EXCEEDS_LINE: createError('REFUND_EXCEEDS_LINE', 'conflict'),
  NOT_REFUNDABLE: createError('ORDER_NOT_REFUNDABLE', 'conflict'),
  NOTHING_TO_REFUND: createError('NOTHING_TO_REFUND', 'conflict'),
  REFUND_EXCEEDS_CAPTURED: createError('REFUND_EXCEEDS_CAPTURED', 'conflict'),
  /** "Sold out here" (86) at the sale's location, whatever the stock. */
  ITEM_SOLD_OUT: createError('ITEM_SOLD_OUT', 'conflict'),
  PROCESSOR_REFUSED: createError('PROCESSOR_REFUSED', 'conflict'),
  /** The card processor's deadline, as payments answers it (PaymentErrors.PROCESSOR_TIMEOUT) during a refund. */
  PROCESSOR_TIMEOUT: createError('PROCESSOR_TIMEOUT', 'unavailable'),
} as const
