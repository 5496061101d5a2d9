import type { PaymentProcessor } from './processor.ts'
import type { Tender } from './tender.ts'

/**
 * A card: the processor authorizes it before it is recorded (captured at once or later), and captures, voids,
 * adjusts and refunds it. A card taken offline waits, sealed, for the worker's authorization (docs/sync.md).
 */
export function cardTender(processor: PaymentProcessor): Tender {
  return { method: 'card', fields: ['payment_method_token'], required: ['payment_method_token'], processor }
}

/** Money taken outside OpenTill (a cheque, a bank transfer): recorded as taken, given back outside too. */
export const EXTERNAL_TENDER: Tender = { method: 'external', fields: [], required: [] }
