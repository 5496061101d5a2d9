import type { Order, OrdersService, StatusBody } from '../modules/orders/index.ts'
import type { PaymentsService } from '../modules/payments/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/**
 * `PATCH /orders/:id/status`: completing a paid order, or voiding one: the void approved first (a refusal changes
 * nothing), its uncaptured card intents voided at the processor (outside any transaction), then the order voided
 * with its stock, campaign uses and redeemed points given back.
 */
export function createChangeOrderStatusFlow(deps: {
  orders: Pick<OrdersService, 'approveVoid' | 'changeStatus'>
  payments: Pick<PaymentsService['orderPort'], 'voidOpenIntents'>
}) {
  return async function changeOrderStatus(
    ctx: RequestContext,
    orderId: string,
    input: Omit<StatusBody, 'version'>,
    expectedVersion: number | undefined,
  ): Promise<Order> {
    if (input.status !== 'voided') return deps.orders.changeStatus(ctx, orderId, input, expectedVersion)
    const approval = await deps.orders.approveVoid(ctx, input)
    await deps.payments.voidOpenIntents(ctx, orderId)
    return deps.orders.changeStatus(ctx, orderId, input, expectedVersion, approval)
  }
}
