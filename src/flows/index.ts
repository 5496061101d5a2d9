import type { AutomationsService } from '../modules/automations/index.ts'
import type { CampaignsService } from '../modules/campaigns/index.ts'
import type { CatalogService } from '../modules/catalog/index.ts'
import type { CustomersService } from '../modules/customers/index.ts'
import type { EventsService } from '../modules/events/index.ts'
import type { InventoryService } from '../modules/inventory/index.ts'
import type { LaybysService } from '../modules/laybys/index.ts'
import type { LocationsService } from '../modules/locations/index.ts'
import type { LoyaltyService } from '../modules/loyalty/index.ts'
import type { ApprovalsPort, OrderRefunds, OrdersService } from '../modules/orders/index.ts'
import type { OrgsService } from '../modules/orgs/index.ts'
import type { PaymentsService } from '../modules/payments/index.ts'
import type { RegistersService } from '../modules/registers/index.ts'
import type { TaxService } from '../modules/tax/index.ts'
import type { WebhooksService } from '../modules/webhooks/index.ts'
import { createChangeOrderStatusFlow } from './change-order-status.ts'
import type { CompleteSale } from './complete-sale.ts'
import { createCustomerProfileFlow } from './customer-profile.ts'
import { createDefineRewardFlow } from './define-reward.ts'
import { createEraseCustomerFlow } from './erase-customer.ts'
import { createLaybyFlows } from './layby.ts'
import { createOrderDetailFlow } from './order-detail.ts'
import { createPriceSaleFlow } from './price-sale.ts'
import { createRedeemRewardFlow } from './redeem-reward.ts'
import { createRefundFlow } from './refund.ts'
import { createSellFlow } from './sell.ts'

/** The modules the flows compose, each through its index. */
export interface FlowModules {
  customers: CustomersService
  events: EventsService
  webhooks: WebhooksService
  automations: AutomationsService
  loyalty: LoyaltyService
  campaigns: CampaignsService
  orders: OrdersService
  orderRefunds: OrderRefunds
  payments: PaymentsService
  inventory: InventoryService
  /** A manager's approval at the till (auth's devices). */
  approvals: ApprovalsPort
  laybys: LaybysService
  locations: LocationsService
  registers: RegistersService
  orgs: OrgsService
  catalog: CatalogService
  tax: TaxService
  /** Built before payments, which take-payment gives it to (services.ts). */
  completeSale: CompleteSale
}

export { createCompleteSaleFlow } from './complete-sale.ts'
export { runFinishers } from './run-finishers.ts'
export { createTakePaymentFlow } from './take-payment.ts'

/**
 * The use cases that span modules, each one file reading as the business sequence (docs/architecture.md
 * "Flows"): the modules below never call each other; a flow calls each through its service.
 */
export function createFlows(modules: FlowModules) {
  const payments = modules.payments.orderPort
  const priceSale = createPriceSaleFlow(modules)
  const orderDetail = createOrderDetailFlow({ ...modules, payments })
  return {
    orderDetail,
    sales: createSellFlow({ ...modules, priceSale }),
    changeOrderStatus: createChangeOrderStatusFlow({ ...modules, payments }),
    laybys: createLaybyFlows({ ...modules, priceSale }),
    refund: createRefundFlow({ ...modules, payments, orderDetail }),
    redeemReward: createRedeemRewardFlow(modules),
    defineReward: createDefineRewardFlow(modules),
    customerProfile: createCustomerProfileFlow(modules),
    eraseCustomer: createEraseCustomerFlow(modules),
  }
}
