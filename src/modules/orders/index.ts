/** Orders: pricing and totals, status moves, refunds. */

export { OrderErrors } from './orders.errors.ts'
export { stalledRefunds } from './orders.jobs.ts'
export { APPROVAL_ERRORS, orderRoutes } from './orders.routes.ts'
export {
  ApprovalInput,
  type CalculateQuery,
  type CreateOrderBody,
  DiscountInput,
  OrderLineInput,
  type OrderPayment,
  OrderSchema,
  type RefundBody,
  type StatusBody,
} from './orders.schemas.ts'
export {
  type Completion,
  createOrdersService,
  type OrdersService,
  type VoidApproval,
  type Voiding,
} from './orders.service.ts'
export type { Order } from './orders.views.ts'
export type {
  ApprovalsPort,
  CampaignsPort,
  CustomersPort,
  InventoryPort,
  LocationsPort,
  PricingPort,
  TaxPort,
} from './ports.ts'
export {
  ownDiscountPercent,
  type PricedOrder,
  type PricingInput,
  presentedVouchers,
  priceFrom,
  refuseUsedUpVouchers,
  stockChangesOf,
  toCalculation,
} from './pricing.ts'
export {
  createOrderRefunds,
  type OrderRefunds,
  type PendingRefund,
  type RefundReservation,
  type RefundTerms,
} from './refunds.service.ts'
