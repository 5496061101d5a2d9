import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import { CreateVariantBody, UpdateVariantBody, VariantListQuery, VariantSchema } from './variants.schemas.ts'
import type { VariantsService } from './variants.service.ts'

const tags = ['catalog']
const Variant = Type.Ref('Variant')

export const variantRoutes: FastifyPluginAsyncTypebox<{ variants: VariantsService }> = async (app, { variants }) => {
  app.addSchema(VariantSchema)

  app.get(
    '/products/:id/variants',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listProductVariants',
        tags,
        summary: "A product's variants, in creation order",
        params: IdParams,
        querystring: VariantListQuery,
        response: { 200: ListOf(Variant), ...errorResponses(404) },
      },
    },
    async (request) => variants.list(request.ctx, request.params.id, request.query),
  )

  app.post(
    '/products/:id/variants',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createProductVariant',
        tags,
        summary: 'Add a variant to a product (its sku is unique across the products and variants of the org)',
        params: IdParams,
        body: CreateVariantBody,
        response: { 201: DataOf(Variant), ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await variants.create(request.ctx, request.params.id, request.body) }),
  )

  app.get(
    '/variants/:id',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'getVariant',
        tags,
        summary: 'One variant',
        params: IdParams,
        response: { 200: DataOf(Variant), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await variants.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/variants/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateVariant',
        tags,
        summary: 'Update a variant; price null returns it to the product base price',
        params: IdParams,
        body: UpdateVariantBody,
        response: { 200: DataOf(Variant), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await variants.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )

  app.delete(
    '/variants/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteVariant',
        tags,
        summary: 'Archive a variant: is_active becomes false',
        params: IdParams,
        response: { 200: DataOf(Variant), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => ({ data: await variants.archive(request.ctx, request.params.id, expectedVersion(request)) }),
  )
}
