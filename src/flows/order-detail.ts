import type { Order, OrdersService } from '../modules/orders/index.ts'
import type { PaymentsService } from '../modules/payments/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/** An order as `GET /orders/:id` shows it: the order's own record with the payments the payments module keeps. */
export function createOrderDetailFlow(deps: {
  orders: Pick<OrdersService, 'get'>
  payments: Pick<PaymentsService['orderPort'], 'listForOrder'>
}) {
  return async function orderDetail(ctx: RequestContext, orderId: string): Promise<Order> {
    return deps.orders.get(ctx, orderId, await deps.payments.listForOrder(ctx, orderId))
  }
}

export type OrderDetail = ReturnType<typeof createOrderDetailFlow>
