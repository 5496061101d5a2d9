import type { CampaignsService } from '../modules/campaigns/index.ts'
import type { CustomersService } from '../modules/customers/index.ts'
import type { InventoryService } from '../modules/inventory/index.ts'
import type { LocationsService } from '../modules/locations/index.ts'
import {
  type ApprovalsPort,
  type CalculateQuery,
  type CreateOrderBody,
  type Order,
  type OrdersService,
  stockChangesOf,
  toCalculation,
} from '../modules/orders/index.ts'
import type { RegistersService } from '../modules/registers/index.ts'
import { allInOrder } from '../platform/all-in-order.ts'
import { newId } from '../platform/crypto/ids.ts'
import { finishWith } from '../platform/db/last-statements.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { PriceSale } from './price-sale.ts'

/**
 * Selling (`POST /orders`) and its calculation, in one transaction: the references checked and the lines priced
 * (catalog, tax, campaigns) at once; the sale's own checks; then the order recorded (order.created), the campaign
 * uses claimed and the stock taken, sent together with COMMIT right behind them.
 */
export function createSellFlow(deps: {
  priceSale: PriceSale
  orders: Pick<OrdersService, 'checkPriced' | 'record'>
  campaigns: Pick<CampaignsService, 'claim'>
  inventory: Pick<InventoryService, 'applyChanges' | 'prepareSale' | 'isSaleRefusal'>
  locations: Pick<LocationsService, 'assertExists'>
  customers: Pick<CustomersService, 'assertExists'>
  registers: Pick<RegistersService, 'assertOpenShift'>
  approvals: ApprovalsPort
}) {
  /** The sale's references: its location, its customer and the open register shift it names. */
  async function checkReferences(ctx: RequestContext, input: CreateOrderBody): Promise<void> {
    await deps.locations.assertExists(ctx, input.location_id, 'location_id')
    if (input.customer_id) await deps.customers.assertExists(ctx, input.customer_id, 'customer_id')
    if (input.shift_id) await deps.registers.assertOpenShift(ctx, input.shift_id, 'shift_id')
  }

  const priced = (ctx: RequestContext, input: CreateOrderBody) =>
    allInOrder(checkReferences(ctx, input), deps.priceSale(ctx, input)).then(([, p]) => p)

  /**
   * One attempt. With `shortcut`, and when this call owns the transaction, the stock goes by inventory's sale
   * statement, the last one sent, so the level rows it locks are held for it and the commit only.
   */
  function sellOnce(
    ctx: RequestContext,
    input: CreateOrderBody,
    shortcut: boolean,
    approvedBy: string | null,
    numbering: { number: string | null },
  ): Promise<Order> {
    return ctx.db.tx(async (_q, commitNow) => {
      const sale = await priced(ctx, input)
      await deps.orders.checkPriced(ctx, sale, approvedBy)
      const orderId = newId('ord')
      const changes = stockChangesOf(sale.quoted, {
        locationId: input.location_id,
        sign: -1,
        reason: 'sale',
        reference: { type: 'order', id: orderId },
      })
      const stockStatement = shortcut && commitNow ? deps.inventory.prepareSale(ctx, changes) : null
      const recorded = deps.orders.record(
        ctx,
        orderId,
        sale,
        {
          locationId: input.location_id,
          customerId: input.customer_id ?? null,
          shiftId: input.shift_id ?? null,
          note: input.note ?? '',
        },
        approvedBy,
        numbering,
      )
      // A campaign limit reached meanwhile fails the claim, and the order with it.
      const claimed = deps.campaigns.claim(
        ctx,
        {
          id: orderId,
          locationId: input.location_id,
          customerId: input.customer_id ?? null,
          currency: sale.currency,
          total: sale.totals.total,
        },
        sale.campaigns.applications,
      )
      const stock = stockStatement ? stockStatement() : deps.inventory.applyChanges(ctx, changes)
      const [order] = await finishWith(stockStatement ? commitNow : null, [recorded, claimed, stock])
      return order
    })
  }

  return {
    /** The totals an order would have; creates nothing. */
    async calculate(ctx: RequestContext, input: CreateOrderBody, query: CalculateQuery = {}) {
      return toCalculation(await priced(ctx, input), query.explain ?? 'relevant')
    },

    /**
     * A plain sale takes the shortcut first; when its stock statement refuses (a missing level, a shortfall, an
     * alert to emit), nothing was written and the sale is made again on the full path, which answers those cases.
     */
    async sell(ctx: RequestContext, input: CreateOrderBody): Promise<Order> {
      // A manager's PIN is checked (slowly) before the sale's transaction, which then only compares.
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      const numbering: { number: string | null } = { number: null }
      try {
        return await sellOnce(ctx, input, true, approvedBy, numbering)
      } catch (error) {
        if (!deps.inventory.isSaleRefusal(error)) throw error
        return sellOnce(ctx, input, false, approvedBy, numbering)
      }
    },
  }
}
