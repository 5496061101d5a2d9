/** Orders: pricing and totals, status moves, refunds. */

export { OrderErrors } from './orders.errors.ts'
export { APPROVAL_ERRORS, orderRoutes } from './orders.routes.ts'
export {
  ApprovalInput,
  type CalculateQuery,
  type CreateOrderBody,
  DiscountInput,
  OrderLineInput,
  OrderSchema,
  type RefundBody,
  type StatusBody,
} from './orders.schemas.ts'
export {
  type Completion,
  createOrdersService,
  type OrdersService,
} from './orders.service.ts'
export type { Order } from './orders.views.ts'
export type {
  ApprovalsPort,
  CustomersPort,
  LocationsPort,
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
} from './refunds.service.ts'
