/** Payments: intents, capture, void, split tender, configured methods, and the processor adapter. */

export { cardTender, EXTERNAL_TENDER } from './card-tender.ts'
export type { RefundPart } from './order-port.ts'
export { PaymentErrors } from './payments.errors.ts'
export { pendingCardAuthorizations } from './payments.jobs.ts'
export { paymentRoutes } from './payments.routes.ts'
export { type CreatePaymentInput, type Payment, PaymentSchema, TenderFields } from './payments.schemas.ts'
export {
  createPaymentsService,
  type OrderBalance,
  type PaymentsService,
  type PaymentTarget,
} from './payments.service.ts'
export { type PaymentProcessor, type ProcessorResult, TestProcessor, withDeadline } from './processor.ts'
export type { Tender } from './tender.ts'
