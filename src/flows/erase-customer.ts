import type { AutomationsService } from '../modules/automations/index.ts'
import type { CustomersService } from '../modules/customers/index.ts'
import type { EventsService } from '../modules/events/index.ts'
import type { WebhooksService } from '../modules/webhooks/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/**
 * Erasing a customer on request (GDPR art. 17), in one transaction: their row is blanked, then the events, the
 * webhook deliveries and the automation runs that kept their data keep only their id, then customer.updated says
 * so (after the events are blanked, so that it keeps its own blank copy). Orders and payments keep the id and
 * amounts.
 */
export function createEraseCustomerFlow(deps: {
  customers: Pick<CustomersService, 'erase' | 'announceErasure'>
  events: Pick<EventsService, 'eraseCustomer'>
  webhooks: Pick<WebhooksService, 'deliveries'>
  automations: Pick<AutomationsService, 'eraseCustomerRuns'>
}) {
  return async function eraseCustomer(ctx: RequestContext, customerId: string): Promise<void> {
    await ctx.db.tx(async () => {
      const erased = await deps.customers.erase(ctx, customerId)
      const eventIds = await deps.events.eraseCustomer(ctx, customerId)
      await deps.webhooks.deliveries.erasePayloads(ctx, customerId, eventIds)
      await deps.automations.eraseCustomerRuns(ctx, customerId)
      await deps.customers.announceErasure(ctx, erased)
    })
  }
}
