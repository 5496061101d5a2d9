import type { LoyaltyService } from '../modules/loyalty/index.ts'
import type { Completion, Order, OrdersService } from '../modules/orders/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/**
 * What every completed sale does next, in the transaction that completed it (an open order paid in full, one
 * completed by hand, a lay-by collected, a till's offline sale): its customer's loyalty points accrue, the order
 * shows them (loyalty_points_earned) and says order.completed.
 */
export function createCompleteSaleFlow(deps: {
  orders: Pick<OrdersService, 'announceCompleted'>
  loyalty: Pick<LoyaltyService, 'accrueForOrder'>
}) {
  return async function completeSale(ctx: RequestContext, completion: Completion): Promise<Order> {
    return ctx.db.tx(async () => {
      const points = await deps.loyalty.accrueForOrder(ctx, completion.basis)
      return deps.orders.announceCompleted(ctx, completion, points)
    })
  }
}

export type CompleteSale = ReturnType<typeof createCompleteSaleFlow>
