import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bumpCatalogAfterWrite } from '../../platform/cache/index.ts'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CreateTaxRateBody, TaxRateListQuery, TaxRateSchema, UpdateTaxRateBody } from './tax.schemas.ts'
import type { TaxService } from './tax.service.ts'

const tags = ['tax']
const TaxRate = Type.Ref('TaxRate')

// Tax rates are part of selling, so they take the orders scopes (docs/decisions.md names no tax area).
export const taxRoutes: FastifyPluginAsyncTypebox<{ tax: TaxService }> = async (app, { tax }) => {
  app.addSchema(TaxRateSchema)
  // Orders price through the catalog and tax rates kept under the catalog version: a tax write moves it on too.
  app.addHook('onSend', bumpCatalogAfterWrite)

  app.get(
    '/tax-rates',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listTaxRates',
        tags,
        summary: 'List tax rates',
        querystring: TaxRateListQuery,
        response: { 200: ListOf(TaxRate) },
      },
    },
    async (request) => tax.list(request.ctx, request.query),
  )

  app.post(
    '/tax-rates',
    {
      config: { scope: 'settings:write' },
      schema: {
        operationId: 'createTaxRate',
        tags,
        summary: 'Create a tax rate',
        body: CreateTaxRateBody,
        response: { 201: DataOf(TaxRate) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await tax.create(request.ctx, request.body) }),
  )

  app.get(
    '/tax-rates/:id',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getTaxRate',
        tags,
        summary: 'One tax rate',
        params: IdParams,
        response: { 200: DataOf(TaxRate), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await tax.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/tax-rates/:id',
    {
      config: { scope: 'settings:write' },
      schema: {
        operationId: 'updateTaxRate',
        tags,
        summary: 'Update a tax rate; If-Match or version guards against lost updates',
        params: IdParams,
        body: UpdateTaxRateBody,
        response: { 200: DataOf(TaxRate), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await tax.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )
}
