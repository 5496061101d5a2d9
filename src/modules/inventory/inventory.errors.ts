import { createError } from '../../platform/errors/codes.ts'

/** The inventory module's error codes (docs/api-conventions.md "Error codes"). */
export const InventoryErrors = {
  /** A decrement below zero; `errors` names the line. Sales, lay-bys and transfers answer it too. */
  INSUFFICIENT_STOCK: createError('INSUFFICIENT_STOCK', 'conflict'),
} as const
