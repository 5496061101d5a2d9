import type { CompleteLaybyBody, Layby, LaybysService } from '../modules/laybys/index.ts'
import type { OrdersService } from '../modules/orders/index.ts'
import type { PaymentsService } from '../modules/payments/index.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { CompleteSale } from './complete-sale.ts'

/**
 * Collecting a lay-by paid in full, in one transaction: the lay-by locked, the completed order it becomes (its stock
 * was taken when the lay-by opened), the sale's completion (points), its payments moved onto the order, then the
 * lay-by completed (layby.completed).
 */
export function createCompleteLaybyFlow(deps: {
  laybys: Pick<LaybysService, 'startCompletion' | 'finishCompletion'>
  orders: Pick<OrdersService, 'createFromLayby'>
  payments: Pick<PaymentsService, 'attachLaybyPayments'>
  completeSale: CompleteSale
}) {
  return async function completeLayby(ctx: RequestContext, id: string, input: CompleteLaybyBody): Promise<Layby> {
    return ctx.db.tx(async () => {
      const started = await deps.laybys.startCompletion(ctx, id, input)
      const order = await deps.completeSale(ctx, await deps.orders.createFromLayby(ctx, started.order))
      await deps.payments.attachLaybyPayments(ctx, id, order.id)
      return deps.laybys.finishCompletion(ctx, started, order.id)
    })
  }
}
