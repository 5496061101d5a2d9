import type { CampaignsService } from '../modules/campaigns/index.ts'
import { LoyaltyErrors, type LoyaltyService, type RedeemBody, type Redemption } from '../modules/loyalty/index.ts'
import type { OrdersService } from '../modules/orders/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/**
 * Redeeming a loyalty reward: loyalty prices the reward, the campaign issues its voucher or the order takes the
 * amount off, then loyalty charges the points. One transaction: a refusal at any step (the campaign not running,
 * too few points) takes nothing (docs/loyalty.md "Rewards").
 */
export function createRedeemRewardFlow(deps: {
  loyalty: Pick<LoyaltyService, 'priceRedemption' | 'chargeRedemption'>
  campaigns: Pick<CampaignsService, 'runsOrWillRun' | 'issueVoucher'>
  orders: Pick<OrdersService, 'applyLoyaltyDiscount'>
}) {
  return async function redeemReward(ctx: RequestContext, input: RedeemBody): Promise<Redemption> {
    return ctx.db.tx(async () => {
      const price = await deps.loyalty.priceRedemption(ctx, input)
      if (price.type === 'voucher') {
        if (!(await deps.campaigns.runsOrWillRun(ctx, price.campaignId)))
          throw LoyaltyErrors.REWARD_UNAVAILABLE(
            "the reward's campaign is not running: a voucher reward issues from an active or scheduled campaign",
          )
        const voucher = await deps.campaigns.issueVoucher(ctx, price.campaignId, input.customer_id)
        return deps.loyalty.chargeRedemption(ctx, input, {
          points: price.points,
          what: price.name,
          reward: {
            type: 'voucher',
            reward_id: price.rewardId,
            campaign_id: price.campaignId,
            voucher_code: voucher.code,
          },
        })
      }
      // The order is locked here, before the member: a void locks them in the same order.
      const { applied } = await deps.orders.applyLoyaltyDiscount(ctx, price.orderId, price.worth, price.discountReason)
      if (applied <= 0n) throw LoyaltyErrors.NOTHING_TO_REDEEM('the order has nothing left to take the reward off')
      return deps.loyalty.chargeRedemption(ctx, input, {
        points: price.pointsFor(applied),
        what: price.describe(applied),
        reward: {
          type: 'order_discount',
          ...(price.rewardId ? { reward_id: price.rewardId } : {}),
          order_id: price.orderId,
          amount: price.amount(applied),
        },
      })
    })
  }
}
