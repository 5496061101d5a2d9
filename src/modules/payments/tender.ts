import type { RequestContext } from '../../platform/http/context.ts'
import type { CreatePaymentInput } from './payments.schemas.ts'
import type { PaymentRow } from './payments.tables.ts'
import type { PaymentProcessor } from './processor.ts'

/** The fields of a payment's input that belong to one tender or another. */
export const TENDER_FIELDS = ['payment_method_token', 'gift_card_code', 'shift_id', 'cash_tendered'] as const
export type TenderField = (typeof TENDER_FIELDS)[number]

/** What a tender's money movement points back to in another ledger (a gift card's, a drawer's). */
interface MoneyReference {
  type: string
  id: string
}

/**
 * One way to pay (Vendure's PaymentMethodHandler, Saleor's gateways): what a payment of it needs, how it is taken
 * and how it is given back. The payments service keeps the ledger and calls these; it never asks which method a
 * payment has. A new way to pay is one more tender handed to `createPaymentsService`.
 */
export interface Tender {
  /** The method's name in the API. */
  readonly method: string
  /** The input fields it takes; the others of `TenderField` are refused when given (`shift_id` for a card). */
  readonly fields: readonly TenderField[]
  /** Those of its fields it cannot do without (422 `required`). */
  readonly required: readonly TenderField[]
  /**
   * The processor that authorizes it outside any transaction, before it is recorded, and captures, voids, adjusts
   * and refunds it (a card). Without one, a payment is captured as it is recorded.
   */
  readonly processor?: PaymentProcessor
  /**
   * Inside the payment's transaction, before its row is written: takes the money where it is kept (a gift card's
   * balance, a till's drawer). Answers the gift card it came from, if any.
   */
  take?(
    ctx: RequestContext,
    payment: { id: string; amount: bigint; shiftId: string | null },
    input: CreatePaymentInput,
  ): Promise<{ giftCardId: string | null }>
  /** Inside a refund's transaction: gives `amount` back where the payment took it from. */
  giveBack?(
    ctx: RequestContext,
    payment: PaymentRow,
    amount: bigint,
    shiftId: string | null,
    reference: MoneyReference,
  ): Promise<void>
  /**
   * A till's offline sale, inside its transaction: puts what was taken where it is kept (cash into the drawer of
   * the shift it was sold in, open or closed since). Answers whether that place was known.
   */
  takeOffline?(ctx: RequestContext, payment: { id: string; amount: bigint }, shiftId: string): Promise<boolean>
}
