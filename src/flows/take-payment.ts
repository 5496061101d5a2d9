import type { OrdersService } from '../modules/orders/index.ts'
import type { OrderBalance } from '../modules/payments/index.ts'
import type { CompleteSale } from './complete-sale.ts'

/**
 * Taking a payment for an order: payments runs the tender and records the payment, and in the same transaction
 * the order is locked, the capture counted on its balance and, paid in full, it completes and its customer's points
 * accrue (complete-sale). This is that order side, which payments is given in services.ts as its `OrderBalance`,
 * so that payments never call orders.
 */
export function createTakePaymentFlow(deps: {
  orders: Pick<OrdersService, 'lockForPayment' | 'recordCapture' | 'addTip'>
  completeSale: CompleteSale
}): OrderBalance {
  return {
    lockForPayment: (ctx, orderId) => deps.orders.lockForPayment(ctx, orderId),
    async recordCapture(ctx, orderId, amount) {
      const completion = await deps.orders.recordCapture(ctx, orderId, amount)
      if (completion) await deps.completeSale(ctx, completion)
    },
    addTip: (ctx, orderId, delta) => deps.orders.addTip(ctx, orderId, delta),
  }
}
