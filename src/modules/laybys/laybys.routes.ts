import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { RequestContext } from '../../platform/http/context.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CampaignErrors } from '../campaigns/index.ts'
import { InventoryErrors } from '../inventory/index.ts'
import { APPROVAL_ERRORS, OrderErrors } from '../orders/index.ts'
import { type Payment, PaymentErrors, PaymentSchema } from '../payments/index.ts'
import { LaybyErrors } from './laybys.errors.ts'
import type { Layby as LaybyView } from './laybys.schemas.ts'
import {
  CancelLaybyBody,
  CompleteLaybyBody,
  CreateLaybyBody,
  LaybyListQuery,
  LaybySchema,
  TenderBody,
} from './laybys.schemas.ts'
import type { LaybysService } from './laybys.service.ts'

const tags = ['laybys']
const Layby = Type.Ref('Layby')

/** The lay-bys service (lists), and the lay-by's sequences, which take payments, campaigns and orders with them. */
interface LaybyRoutesOptions {
  laybys: Pick<LaybysService, 'list'>
  /** flows/layby.ts */
  flows: {
    create(ctx: RequestContext, input: CreateLaybyBody): Promise<LaybyView>
    get(ctx: RequestContext, id: string): Promise<LaybyView>
    pay(ctx: RequestContext, id: string, tender: TenderBody): Promise<{ payment: Payment; layby: LaybyView }>
    complete(ctx: RequestContext, id: string, input: CompleteLaybyBody): Promise<LaybyView>
    cancel(ctx: RequestContext, id: string, input: CancelLaybyBody): Promise<LaybyView>
  }
}

export const laybyRoutes: FastifyPluginAsyncTypebox<LaybyRoutesOptions> = async (app, { laybys, flows }) => {
  app.addSchema(PaymentSchema)
  app.addSchema(LaybySchema)

  app.post(
    '/laybys',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'createLayby',
        tags,
        summary: 'Open a lay-by: reserves the stock and takes the deposit',
        body: CreateLaybyBody,
        response: {
          201: DataOf(Layby),
          ...errorResponses(
            404,
            LaybyErrors.CARD_DECLINED,
            PaymentErrors.PROCESSOR_TIMEOUT,
            PaymentErrors.EXCEEDS_BALANCE,
            InventoryErrors.INSUFFICIENT_STOCK,
            OrderErrors.ITEM_SOLD_OUT,
            CampaignErrors.VOUCHER_USED_UP,
            ...APPROVAL_ERRORS,
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await flows.create(request.ctx, request.body) }),
  )

  app.get(
    '/laybys',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listLaybys',
        tags,
        summary: 'List lay-bys',
        querystring: LaybyListQuery,
        response: { 200: ListOf(Layby) },
      },
    },
    async (request) => laybys.list(request.ctx, request.query),
  )

  app.get(
    '/laybys/:id',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getLayby',
        tags,
        summary: 'A lay-by with its payments',
        params: IdParams,
        response: { 200: DataOf(Layby), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await flows.get(request.ctx, request.params.id) }),
  )

  app.post(
    '/laybys/:id/payments',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'payLayby',
        tags,
        summary: 'Pay towards a lay-by (never more than its balance)',
        params: IdParams,
        body: TenderBody,
        response: {
          201: DataOf(Type.Object({ payment: Type.Ref('Payment'), layby: Layby })),
          ...errorResponses(
            404,
            LaybyErrors.NOT_OPEN,
            PaymentErrors.NOT_PAYABLE,
            PaymentErrors.EXCEEDS_BALANCE,
            PaymentErrors.CARD_DECLINED,
            PaymentErrors.PROCESSOR_TIMEOUT,
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await flows.pay(request.ctx, request.params.id, request.body) }),
  )

  app.post(
    '/laybys/:id/complete',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'completeLayby',
        tags,
        summary: 'Complete a fully paid lay-by when the goods are collected; it becomes a completed order',
        params: IdParams,
        body: Type.Optional(CompleteLaybyBody),
        response: {
          200: DataOf(Layby),
          ...errorResponses(404, LaybyErrors.NOT_OPEN, LaybyErrors.NOT_PAID, InventoryErrors.INSUFFICIENT_STOCK),
        },
      },
    },
    async (request) => ({ data: await flows.complete(request.ctx, request.params.id, request.body ?? {}) }),
  )

  app.post(
    '/laybys/:id/cancel',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'cancelLayby',
        tags,
        summary: 'Cancel an open lay-by: refunds its payments and releases the stock',
        params: IdParams,
        body: Type.Optional(CancelLaybyBody),
        response: {
          200: DataOf(Layby),
          ...errorResponses(
            404,
            LaybyErrors.NOT_OPEN,
            LaybyErrors.PROCESSOR_REFUSED,
            PaymentErrors.PROCESSOR_TIMEOUT,
            ...APPROVAL_ERRORS,
          ),
        },
      },
    },
    async (request) => ({ data: await flows.cancel(request.ctx, request.params.id, request.body ?? {}) }),
  )
}
