import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { AuthErrors } from '../auth/index.ts'
import { CampaignErrors } from '../campaigns/index.ts'
import { InventoryErrors } from '../inventory/index.ts'
import { RegisterErrors } from '../registers/index.ts'
import { OrderErrors } from './orders.errors.ts'
import {
  CalculateQuery,
  CalculationSchema,
  CreateOrderBody,
  CustomerOrdersQuery,
  OrderListQuery,
  OrderSchema,
  RefundBody,
  RefundSchema,
  StatusBody,
} from './orders.schemas.ts'
import type { OrdersService } from './orders.service.ts'
import type { Order as OrderView } from './orders.views.ts'
import type { toCalculation } from './pricing.ts'

/** What a staff member's void, refund or large discount may answer beyond a 422 on `approval.pin`. */
export const APPROVAL_ERRORS = [
  AuthErrors.APPROVAL_REQUIRED,
  AuthErrors.ROLE_NOT_ALLOWED,
  AuthErrors.PIN_LOCKED,
  AuthErrors.DEVICE_LOCKED,
] as const

const tags = ['orders']
const Order = Type.Ref('Order')

/** The orders service, and the refund, which takes payments, stock and loyalty with it (flows/refund.ts). */
interface OrderRoutesOptions {
  orders: OrdersService
  /** Selling and its calculation (flows/sell.ts). */
  sales: {
    sell(ctx: RequestContext, input: CreateOrderBody): Promise<OrderView>
    calculate(
      ctx: RequestContext,
      input: CreateOrderBody,
      query: CalculateQuery,
    ): Promise<ReturnType<typeof toCalculation>>
  }
  /** The order with its payments (flows/order-detail.ts). */
  orderDetail(ctx: RequestContext, orderId: string): Promise<OrderView>
  /** Completing or voiding, a void's card intents voided first (flows/change-order-status.ts). */
  changeOrderStatus(
    ctx: RequestContext,
    orderId: string,
    input: Omit<StatusBody, 'version'>,
    expectedVersion: number | undefined,
  ): Promise<OrderView>
  refunds: { refund(ctx: RequestContext, orderId: string, input: RefundBody): Promise<OrderView> }
}

export const orderRoutes: FastifyPluginAsyncTypebox<OrderRoutesOptions> = async (
  app,
  { orders, sales, orderDetail, changeOrderStatus, refunds },
) => {
  app.addSchema(RefundSchema)
  app.addSchema(OrderSchema)
  app.addSchema(CalculationSchema)

  app.get(
    '/orders',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listOrders',
        tags,
        summary: 'List orders, filtered by status, creation time range, location or customer',
        querystring: OrderListQuery,
        response: { 200: ListOf(Order) },
      },
    },
    async (request) => orders.list(request.ctx, request.query),
  )

  app.post(
    '/orders',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'createOrder',
        tags,
        summary: 'Create an order: prices, taxes and stock are taken in one transaction',
        body: CreateOrderBody,
        response: {
          201: DataOf(Order),
          ...errorResponses(
            OrderErrors.VOUCHER_USED_UP,
            CampaignErrors.USAGE_LIMIT_REACHED,
            CampaignErrors.CUSTOMER_LIMIT_REACHED,
            InventoryErrors.INSUFFICIENT_STOCK,
            OrderErrors.ITEM_SOLD_OUT,
            RegisterErrors.SHIFT_NOT_OPEN,
            ...APPROVAL_ERRORS,
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await sales.sell(request.ctx, request.body) }),
  )

  app.post(
    '/orders/calculate',
    {
      // A POST, so orders:write (docs/decisions.md "Scopes"), though it changes nothing.
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'calculateOrder',
        tags,
        summary:
          'The totals an order would have, line by line, with the campaigns that applied and why others did not (explain=all also lists campaigns for products not in the order); creates nothing',
        querystring: CalculateQuery,
        body: CreateOrderBody,
        response: {
          200: DataOf(Type.Ref('OrderCalculation')),
          ...errorResponses(RegisterErrors.SHIFT_NOT_OPEN, OrderErrors.ITEM_SOLD_OUT),
        },
      },
    },
    async (request) => ({ data: await sales.calculate(request.ctx, request.body, request.query) }),
  )

  app.get(
    '/orders/:id',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getOrder',
        tags,
        summary: 'An order with its lines, payments, refunds and status history',
        params: IdParams,
        response: { 200: DataOf(Order), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await orderDetail(request.ctx, request.params.id) }),
  )

  app.patch(
    '/orders/:id/status',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'changeOrderStatus',
        tags,
        summary: 'Complete (fully paid) or void (releases stock) an open order; other moves are 409',
        params: IdParams,
        body: StatusBody,
        response: {
          200: DataOf(Order),
          ...errorResponses(
            404,
            STALE_VERSION,
            OrderErrors.ILLEGAL_MOVE,
            OrderErrors.NOT_OPEN,
            OrderErrors.NOT_PAID,
            OrderErrors.HAS_PAYMENTS,
            OrderErrors.PROCESSOR_REFUSED,
            OrderErrors.PROCESSOR_TIMEOUT,
            ...APPROVAL_ERRORS,
          ),
        },
      },
    },
    async (request) => {
      const { version, ...input } = request.body
      return {
        data: await changeOrderStatus(request.ctx, request.params.id, input, expectedVersion(request, version)),
      }
    },
  )

  app.post(
    '/orders/:id/refund',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'refundOrder',
        tags,
        summary: 'Refund by lines or amount (default: all that is left), optionally restocking',
        params: IdParams,
        body: RefundBody,
        response: {
          201: DataOf(Order),
          ...errorResponses(
            404,
            OrderErrors.NOT_REFUNDABLE,
            OrderErrors.NOTHING_TO_REFUND,
            OrderErrors.REFUND_EXCEEDS_LINE,
            OrderErrors.REFUND_EXCEEDS_CAPTURED,
            OrderErrors.PROCESSOR_REFUSED,
            OrderErrors.PROCESSOR_TIMEOUT,
            ...APPROVAL_ERRORS,
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await refunds.refund(request.ctx, request.params.id, request.body) }),
  )

  app.get(
    '/customers/:id/orders',
    {
      config: { scope: 'customers:read' },
      schema: {
        operationId: 'listCustomerOrders',
        tags: ['customers'],
        summary: "A customer's orders, newest last",
        params: IdParams,
        querystring: CustomerOrdersQuery,
        response: { 200: ListOf(Order), ...errorResponses(404) },
      },
    },
    async (request) => orders.listForCustomer(request.ctx, request.params.id, request.query),
  )
}
