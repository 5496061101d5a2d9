import { createError } from '../../platform/errors/codes.ts'

/** The laybys module's error codes (docs/api-conventions.md "Error codes"). */
export const LaybyErrors = {
  NOT_OPEN: createError('LAYBY_NOT_OPEN', 'conflict'),
  CARD_DECLINED: createError('CARD_DECLINED', 'conflict'),
  NOT_PAID: createError('LAYBY_NOT_PAID', 'conflict'),
  PROCESSOR_REFUSED: createError('PROCESSOR_REFUSED', 'conflict'),
} as const
