import type { CustomersService } from '../modules/customers/index.ts'
import type { OrdersService } from '../modules/orders/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/** A customer's profile with what they bought, which the orders module counts (customers never read orders). */
export function createCustomerProfileFlow(deps: {
  customers: Pick<CustomersService, 'profile'>
  orders: Pick<OrdersService, 'purchaseSummary'>
}) {
  return async function customerProfile(ctx: RequestContext, customerId: string) {
    return deps.customers.profile(ctx, customerId, await deps.orders.purchaseSummary(ctx, customerId))
  }
}
