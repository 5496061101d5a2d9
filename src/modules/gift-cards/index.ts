/** Gift cards: issue, load, balance, redeem as a payment method, disable, and the ledger of every change. */

export { GiftCardErrors } from './gift-cards.errors.ts'
export { giftCardRoutes } from './gift-cards.routes.ts'
export { GiftCardSchema } from './gift-cards.schemas.ts'
export { createGiftCardsService, type GiftCardsService } from './gift-cards.service.ts'
