import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, ListOf } from '../../../platform/http/schemas.ts'
import { SoldOutItemParams, SoldOutListQuery, SoldOutParams, SoldOutSchema } from './sold-out.schemas.ts'
import type { SoldOutService } from './sold-out.service.ts'

const tags = ['catalog']
const SoldOut = Type.Ref('SoldOutItem')

/** The 86 list of a location: what sales there refuse (ITEM_SOLD_OUT) whatever the stock. */
export const soldOutRoutes: FastifyPluginAsyncTypebox<{ soldOut: SoldOutService }> = async (app, { soldOut }) => {
  app.addSchema(SoldOutSchema)

  app.get(
    '/locations/:location_id/sold-out',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listSoldOutItems',
        tags,
        summary: 'What is sold out ("86") at a location, by item id',
        params: SoldOutParams,
        querystring: SoldOutListQuery,
        response: { 200: ListOf(SoldOut), ...errorResponses(404) },
      },
    },
    async (request) => soldOut.list(request.ctx, request.params.location_id, request.query),
  )

  app.put(
    '/locations/:location_id/sold-out/:item_id',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'markSoldOut',
        tags,
        summary: 'Mark a product (all its variants) or one variant sold out at a location; sales there refuse it',
        params: SoldOutItemParams,
        response: { 200: DataOf(SoldOut), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await soldOut.mark(request.ctx, request.params) }),
  )

  app.delete(
    '/locations/:location_id/sold-out/:item_id',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'clearSoldOut',
        tags,
        summary: 'Put an item back on sale at a location',
        params: SoldOutItemParams,
        response: {
          204: Type.Null({ description: 'on sale again (also when it was not marked)' }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      await soldOut.clear(request.ctx, request.params)
      return reply.code(204).send(null)
    },
  )
}
