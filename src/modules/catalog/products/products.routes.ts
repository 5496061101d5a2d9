import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import {
  CreateProductBody,
  ProductBatchBody,
  ProductBatchResultSchema,
  ProductListQuery,
  ProductSchema,
  UpdateProductBody,
} from './products.schemas.ts'
import type { ProductsService } from './products.service.ts'

const tags = ['catalog']
const Product = Type.Ref('Product')

export const productRoutes: FastifyPluginAsyncTypebox<{ products: ProductsService }> = async (app, { products }) => {
  app.addSchema(ProductSchema)
  app.addSchema(ProductBatchResultSchema)

  app.get(
    '/products',
    {
      config: { scope: 'catalog:read', responseCache: 'catalog' },
      schema: {
        operationId: 'listProducts',
        tags,
        summary: 'List products, in creation order, filtered by category, active flag or a search text',
        querystring: ProductListQuery,
        // ids with a search or a scan is a 422 the query schema cannot refuse.
        response: { 200: ListOf(Product), ...errorResponses(422) },
      },
    },
    async (request) => products.list(request.ctx, request.query),
  )

  app.post(
    '/products',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createProduct',
        tags,
        summary: 'Create a product (sku is required)',
        body: CreateProductBody,
        response: { 201: DataOf(Product) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await products.create(request.ctx, request.body) }),
  )

  app.post(
    '/products/batch',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'batchProducts',
        tags,
        summary: 'Create and update up to 500 products by SKU in one call (an import, a price change of many)',
        description:
          'A product with the SKU gets the fields given; another SKU is a new product, which needs name and base_price. One bad item refuses the whole batch with a 422 naming `products.<i>.<field>`; items that change nothing are left as they are (an import sent twice changes nothing the second time).',
        body: ProductBatchBody,
        response: { 200: DataOf(Type.Ref('ProductBatchResult')), ...errorResponses(STALE_VERSION) },
      },
    },
    async (request) => ({ data: await products.batch(request.ctx, request.body) }),
  )

  app.get(
    '/products/:id',
    {
      config: { scope: 'catalog:read', responseCache: 'catalog' },
      schema: {
        operationId: 'getProduct',
        tags,
        summary: 'One product',
        params: IdParams,
        response: { 200: DataOf(Product), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await products.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/products/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateProduct',
        tags,
        summary: 'Update product fields; If-Match or version guards against lost updates',
        params: IdParams,
        body: UpdateProductBody,
        response: { 200: DataOf(Product), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await products.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )

  app.delete(
    '/products/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteProduct',
        tags,
        summary: 'Archive (soft-delete) a product: is_active becomes false',
        params: IdParams,
        response: { 200: DataOf(Product), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => ({ data: await products.archive(request.ctx, request.params.id, expectedVersion(request)) }),
  )
}
