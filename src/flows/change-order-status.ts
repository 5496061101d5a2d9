import type { CampaignsService } from '../modules/campaigns/index.ts'
import type { LoyaltyService } from '../modules/loyalty/index.ts'
import type { Order, OrdersService, StatusBody } from '../modules/orders/index.ts'
import type { PaymentsService } from '../modules/payments/index.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { CompleteSale } from './complete-sale.ts'

/**
 * `PATCH /orders/:id/status`: completing a paid order (its points accrue), or voiding one: the void approved
 * first (a refusal changes nothing), its uncaptured card intents voided at the processor (outside any
 * transaction), then in one transaction the order voided, its campaign uses and redeemed points given back, its
 * stock back on the shelf and order.voided.
 */
export function createChangeOrderStatusFlow(deps: {
  orders: Pick<OrdersService, 'approveVoid' | 'refuseMove' | 'complete' | 'startVoid' | 'finishVoid'>
  payments: Pick<PaymentsService['orderPort'], 'voidOpenIntents'>
  campaigns: Pick<CampaignsService, 'release'>
  loyalty: Pick<LoyaltyService, 'returnRedemptions'>
  completeSale: CompleteSale
}) {
  return async function changeOrderStatus(
    ctx: RequestContext,
    orderId: string,
    input: Omit<StatusBody, 'version'>,
    expectedVersion: number | undefined,
  ): Promise<Order> {
    if (input.status === 'completed')
      return ctx.db.tx(async () =>
        deps.completeSale(ctx, await deps.orders.complete(ctx, orderId, input, expectedVersion)),
      )
    if (input.status !== 'voided') return deps.orders.refuseMove(ctx, orderId, input.status)
    const approval = await deps.orders.approveVoid(ctx, input)
    await deps.payments.voidOpenIntents(ctx, orderId)
    return ctx.db.tx(async () => {
      const voiding = await deps.orders.startVoid(ctx, orderId, input, expectedVersion, approval)
      await deps.campaigns.release(ctx, orderId)
      await deps.loyalty.returnRedemptions(ctx, orderId)
      return deps.orders.finishVoid(ctx, voiding)
    })
  }
}
