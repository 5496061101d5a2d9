import type { CampaignsService } from '../modules/campaigns/index.ts'
import type { CreateRewardBody, LoyaltyReward, LoyaltyService } from '../modules/loyalty/index.ts'
import { invalid } from '../platform/errors/app-error.ts'
import type { RequestContext } from '../platform/http/context.ts'

/** Pricing a loyalty reward: a voucher reward names a campaign of the org, which loyalty does not know. */
export function createDefineRewardFlow(deps: {
  loyalty: Pick<LoyaltyService, 'createReward'>
  campaigns: Pick<CampaignsService, 'exists'>
}) {
  return async function defineReward(
    ctx: RequestContext,
    programId: string,
    input: CreateRewardBody,
  ): Promise<LoyaltyReward> {
    const { gives } = input
    if (gives.type === 'voucher' && !(await deps.campaigns.exists(ctx, gives.campaign_id)))
      throw invalid('gives.campaign_id', 'does not name a campaign of this org', 'not_found')
    return deps.loyalty.createReward(ctx, programId, input)
  }
}
