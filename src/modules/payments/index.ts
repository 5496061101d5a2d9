/** Payments: intents, capture, void, split tender, configured methods, and the processor adapter. */

export { cardTender, EXTERNAL_TENDER } from './card-tender.ts'
export type { OrderPaymentsPort, RefundPart } from './order-port.ts'
export { PaymentErrors } from './payments.errors.ts'
export { pendingCardAuthorizations } from './payments.jobs.ts'
export { paymentRoutes } from './payments.routes.ts'
export { type CreatePaymentInput, type Payment, PaymentSchema, TenderFields } from './payments.schemas.ts'
export {
  type CardHold,
  createPaymentsService,
  type OrderBalance,
  PAYMENT_METHODS,
  type PaymentsService,
  type PaymentTarget,
} from './payments.service.ts'
export { type PaymentProcessor, type ProcessorResult, TestProcessor, withDeadline } from './processor.ts'
export type { MoneyReference, Tender, TenderField } from './tender.ts'
