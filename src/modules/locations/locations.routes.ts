import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bumpCatalogAfterWrite } from '../../platform/cache/index.ts'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CreateLocationBody, LocationListQuery, LocationSchema, UpdateLocationBody } from './locations.schemas.ts'
import type { LocationsService } from './locations.service.ts'

const tags = ['locations']
const Location = Type.Ref('Location')

/** Locations are stock places, so they share the inventory scopes. */
export const locationRoutes: FastifyPluginAsyncTypebox<{ locations: LocationsService }> = async (
  app,
  { locations },
) => {
  app.addSchema(LocationSchema)
  // Campaigns price with each location's time zone, kept under the catalog version: a location write moves it on.
  app.addHook('onSend', bumpCatalogAfterWrite)

  app.get(
    '/locations',
    {
      config: { scope: 'inventory:read' },
      schema: {
        operationId: 'listLocations',
        tags,
        summary: 'List locations in creation order',
        querystring: LocationListQuery,
        response: { 200: ListOf(Location) },
      },
    },
    async (request) => locations.list(request.ctx, request.query),
  )

  app.post(
    '/locations',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'createLocation',
        tags,
        summary: 'Create a location',
        body: CreateLocationBody,
        response: { 201: DataOf(Location) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await locations.create(request.ctx, request.body) }),
  )

  app.get(
    '/locations/:id',
    {
      config: { scope: 'inventory:read' },
      schema: {
        operationId: 'getLocation',
        tags,
        summary: 'One location',
        params: IdParams,
        response: { 200: DataOf(Location), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await locations.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/locations/:id',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'updateLocation',
        tags,
        summary:
          'Update a location (name, address, timezone, is_active); If-Match or version guards against lost updates',
        params: IdParams,
        body: UpdateLocationBody,
        response: { 200: DataOf(Location), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await locations.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )
}
