/** Campaigns: discount rules with conditions, a schedule, vouchers and limits, applied when orders are priced. */

export { CampaignErrors } from './campaigns.errors.ts'
export { moveDueCampaigns, startCampaignClock } from './campaigns.jobs.ts'
export { campaignRoutes } from './campaigns.routes.ts'
export { AppliedCampaignSchema, CampaignSchema, SkippedCampaignSchema } from './campaigns.schemas.ts'
export {
  type CampaignPricing,
  type CampaignsService,
  createCampaignsService,
} from './campaigns.service.ts'
