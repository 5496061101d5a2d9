import { createError } from '../../platform/errors/codes.ts'

/** The payments module's error codes (docs/api-conventions.md "Error codes"). */
export const PaymentErrors = {
  NOT_PAYABLE: createError('PAYMENT_NOT_ACCEPTED', 'conflict'),
  EXCEEDS_BALANCE: createError('PAYMENT_EXCEEDS_BALANCE', 'conflict'),
  CARD_DECLINED: createError('CARD_DECLINED', 'conflict'),
  NOT_CAPTURABLE: createError('PAYMENT_NOT_CAPTURABLE', 'conflict'),
  PROCESSOR_REFUSED: createError('PROCESSOR_REFUSED', 'conflict'),
  CHANGED_CONCURRENTLY: createError('PAYMENT_CHANGED_CONCURRENTLY', 'conflict'),
  NOT_VOIDABLE: createError('PAYMENT_NOT_VOIDABLE', 'conflict'),
  /** A tip is adjusted only on a card payment not yet captured. */
  TIP_NOT_ADJUSTABLE: createError('TIP_NOT_ADJUSTABLE', 'conflict'),
  /** The processor did not answer within PROCESSOR_TIMEOUT_MS: retry with the same Idempotency-Key. */
  PROCESSOR_TIMEOUT: createError('PROCESSOR_TIMEOUT', 'unavailable'),
} as const
