import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import { CreatePriceListBody, PriceListQuery, PriceListSchema, UpdatePriceListBody } from './price-lists.schemas.ts'
import type { PriceListsService } from './price-lists.service.ts'

const tags = ['catalog']
const PriceList = Type.Ref('PriceList')

export const priceListRoutes: FastifyPluginAsyncTypebox<{ priceLists: PriceListsService }> = async (
  app,
  { priceLists },
) => {
  app.addSchema(PriceListSchema)

  app.get(
    '/price-lists',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listPriceLists',
        tags,
        summary: 'List price lists with their prices, in creation order',
        querystring: PriceListQuery,
        response: { 200: ListOf(PriceList) },
      },
    },
    async (request) => priceLists.list(request.ctx, request.query),
  )

  app.post(
    '/price-lists',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createPriceList',
        tags,
        summary:
          'Create a price list: per-product (and per-variant) prices, optionally for one location and a validity window',
        body: CreatePriceListBody,
        response: { 201: DataOf(PriceList) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await priceLists.create(request.ctx, request.body) }),
  )

  app.get(
    '/price-lists/:id',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'getPriceList',
        tags,
        summary: 'One price list',
        params: IdParams,
        response: { 200: DataOf(PriceList), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await priceLists.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/price-lists/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updatePriceList',
        tags,
        summary: 'Update a price list; `prices`, when given, replaces all of its prices',
        params: IdParams,
        body: UpdatePriceListBody,
        response: { 200: DataOf(PriceList), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return {
        data: await priceLists.update(request.ctx, request.params.id, fields, expectedVersion(request, version)),
      }
    },
  )

  app.delete(
    '/price-lists/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deletePriceList',
        tags,
        summary: 'Delete a price list and its prices',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request, reply) => {
      await priceLists.remove(request.ctx, request.params.id, expectedVersion(request))
      return reply.code(204).send(null)
    },
  )
}
