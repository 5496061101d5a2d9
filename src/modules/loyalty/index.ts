/** Loyalty: one active program per org, members and tiers, points as a ledger of expiring lots. */
export { LoyaltyErrors } from './loyalty.errors.ts'
export { expireDuePoints, startPointsExpiry } from './loyalty.jobs.ts'
export { loyaltyRoutes } from './loyalty.routes.ts'
export type { CreateRewardBody, LoyaltyReward, RedeemBody } from './loyalty.schemas.ts'
export {
  createLoyaltyService,
  type LoyaltyService,
  type Redemption,
} from './loyalty.service.ts'
