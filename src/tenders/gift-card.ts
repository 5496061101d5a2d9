import type { GiftCardsService } from '../modules/gift-cards/index.ts'
import type { Tender } from '../modules/payments/index.ts'

/** A gift card (Saleor's gift card gateway): its balance pays, up to what it holds; a refund loads it back. */
export function giftCardTender(giftCards: GiftCardsService): Tender {
  return {
    method: 'gift_card',
    fields: ['gift_card_code'],
    required: ['gift_card_code'],
    async take(ctx, payment, input) {
      const reference = { type: 'payment', id: payment.id }
      const { giftCardId } = await giftCards.redeem(
        ctx,
        input.gift_card_code!,
        payment.amount,
        reference,
        'gift_card_code',
      )
      return { giftCardId }
    },
    async giveBack(ctx, payment, amount, _shiftId, reference) {
      if (payment.gift_card_id) await giftCards.credit(ctx, payment.gift_card_id, amount, reference)
    },
  }
}
