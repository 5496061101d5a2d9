import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import { BundleListQuery, BundleSchema, CreateBundleBody, UpdateBundleBody } from './bundles.schemas.ts'
import type { BundlesService } from './bundles.service.ts'

const tags = ['catalog']
const Bundle = Type.Ref('Bundle')

export const bundleRoutes: FastifyPluginAsyncTypebox<{ bundles: BundlesService }> = async (app, { bundles }) => {
  app.addSchema(BundleSchema)

  app.get(
    '/bundles',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listBundles',
        tags,
        summary: 'List bundles with their components, in creation order',
        querystring: BundleListQuery,
        response: { 200: ListOf(Bundle) },
      },
    },
    async (request) => bundles.list(request.ctx, request.query),
  )

  app.post(
    '/bundles',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createBundle',
        tags,
        summary: 'Make a product a bundle of other products (never of itself or of another bundle)',
        body: CreateBundleBody,
        response: { 201: DataOf(Bundle) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await bundles.create(request.ctx, request.body) }),
  )

  app.get(
    '/bundles/:id',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'getBundle',
        tags,
        summary: 'One bundle',
        params: IdParams,
        response: { 200: DataOf(Bundle), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await bundles.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/bundles/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateBundle',
        tags,
        summary: 'Replace the components of a bundle',
        params: IdParams,
        body: UpdateBundleBody,
        response: { 200: DataOf(Bundle), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await bundles.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )

  app.delete(
    '/bundles/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteBundle',
        tags,
        summary: 'Stop selling a product as a bundle (the product stays)',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request, reply) => {
      await bundles.remove(request.ctx, request.params.id, expectedVersion(request))
      return reply.code(204).send(null)
    },
  )
}
