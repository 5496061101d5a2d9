import { createError } from '../../platform/errors/codes.ts'

/** The receipts module's error codes (docs/api-conventions.md "Error codes"). */
export const ReceiptErrors = {
  /** Too many receipts e-mailed for one order, or by the org in a day. */
  EMAIL_LIMIT: createError('RECEIPT_EMAIL_LIMIT', 'rate-limited'),
} as const
