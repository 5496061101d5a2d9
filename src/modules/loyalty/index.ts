/** Loyalty: one active program per org, members and tiers, points as a ledger of expiring lots. */
export { expireDuePoints, startPointsExpiry } from './loyalty.jobs.ts'
export { loyaltyRoutes } from './loyalty.routes.ts'
export { createLoyaltyService, type LoyaltyService } from './loyalty.service.ts'
