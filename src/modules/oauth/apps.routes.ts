import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, ListOf } from '../../platform/http/schemas.ts'
import { APPS_SCOPE } from '../auth/index.ts'
import {
  AppListQuery,
  AppSchema,
  AppWithSecret,
  ClientIdParams,
  ConnectedAppSchema,
  CreateAppBody,
  UpdateAppBody,
} from './apps.schemas.ts'
import type { AppsService } from './apps.service.ts'
import type { GrantsService } from './grants.service.ts'

const tags = ['apps']
const config = { scope: APPS_SCOPE }
/** A secret is in its answer once: a replay of the request (same Idempotency-Key) does not carry it. */
const secretAnswer = { scope: APPS_SCOPE, idempotency: { notStored: ['client_secret'] } }
const App = Type.Ref('App')

/**
 * `/apps`: the OAuth apps a store registers, and `/connected-apps`: the apps it has let in. Owners only
 * (`apps:write`, which no app can be granted: an app never registers apps).
 */
export const appRoutes: FastifyPluginAsyncTypebox<{ apps: AppsService; grants: GrantsService }> = async (
  app,
  { apps, grants },
) => {
  app.addSchema(AppSchema)
  app.addSchema(ConnectedAppSchema)

  app.get(
    '/apps',
    {
      config,
      schema: {
        operationId: 'listApps',
        tags,
        summary: 'The apps the store registered',
        querystring: AppListQuery,
        response: { 200: ListOf(App) },
      },
    },
    async (request) => apps.list(request.ctx, request.query),
  )

  app.post(
    '/apps',
    {
      config: secretAnswer,
      schema: {
        operationId: 'createApp',
        tags,
        summary: 'Register an app; its secret is in this answer only',
        body: CreateAppBody,
        response: { 201: AppWithSecret },
      },
    },
    async (request, reply) => {
      const { app: created, clientSecret } = await apps.create(request.ctx, {
        name: request.body.name,
        redirectUris: request.body.redirect_uris,
        allowedScopes: request.body.allowed_scopes ?? [],
        public: request.body.client_type === 'public',
      })
      return reply.code(201).send({ data: created, client_secret: clientSecret })
    },
  )

  app.get(
    '/apps/:client_id',
    {
      config,
      schema: {
        operationId: 'getApp',
        tags,
        summary: 'One app',
        params: ClientIdParams,
        response: { 200: DataOf(App), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await apps.get(request.ctx, request.params.client_id) }),
  )

  app.patch(
    '/apps/:client_id',
    {
      config,
      schema: {
        operationId: 'updateApp',
        tags,
        summary: 'Rename an app, change its redirect URIs or the scopes it may ask for',
        params: ClientIdParams,
        body: UpdateAppBody,
        response: { 200: DataOf(App), ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await apps.update(request.ctx, request.params.client_id, {
        name: request.body.name,
        redirectUris: request.body.redirect_uris,
        allowedScopes: request.body.allowed_scopes,
      }),
    }),
  )

  app.post(
    '/apps/:client_id/rotate-secret',
    {
      config: secretAnswer,
      schema: {
        operationId: 'rotateAppSecret',
        tags,
        summary: 'A new secret, in this answer only; the old one stops working at once',
        params: ClientIdParams,
        // A public app has no secret to rotate: a 422.
        response: { 200: AppWithSecret, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { app: rotated, clientSecret } = await apps.rotateSecret(request.ctx, request.params.client_id)
      return { data: rotated, client_secret: clientSecret }
    },
  )

  app.get(
    '/connected-apps',
    {
      config,
      schema: {
        operationId: 'listConnectedApps',
        tags,
        summary: 'The apps the store has let in, with their scopes and when they were last used',
        response: { 200: DataOf(Type.Array(Type.Ref('ConnectedApp'))) },
      },
    },
    async (request) => ({ data: await grants.listConnections(request.ctx) }),
  )

  app.delete(
    '/connected-apps/:client_id',
    {
      config,
      schema: {
        operationId: 'disconnectApp',
        tags,
        summary: 'Disconnect an app: its tokens are refused at once',
        params: ClientIdParams,
        response: { 204: Type.Null({ description: 'disconnected' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await grants.disconnect(request.ctx, request.params.client_id)
      return reply.code(204).send(null)
    },
  )
}
