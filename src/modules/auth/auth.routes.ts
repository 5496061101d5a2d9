import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ANY_TOKEN } from '../../platform/http/authenticate.ts'
import { errorResponses } from '../../platform/http/schemas.ts'
import { LoginBody, LoginSessionSchema, MeSchema, RefreshBody } from './auth.schemas.ts'
import type { AuthService } from './auth.service.ts'

const tags = ['auth']

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/auth/login',
    {
      config: { scope: false },
      schema: {
        operationId: 'login',
        tags,
        summary: 'Exchange e-mail and password for an access token and a refresh token',
        security: [],
        body: LoginBody,
        response: { 200: LoginSessionSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ data: await auth.login(request.body.email, request.body.password) }),
  )

  app.post(
    '/auth/refresh',
    {
      config: { scope: false },
      schema: {
        operationId: 'refreshLogin',
        tags,
        summary: 'Rotate a refresh token: a new access token and a new refresh token',
        security: [],
        body: RefreshBody,
        response: { 200: LoginSessionSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ data: await auth.refresh(request.body.refreshToken) }),
  )

  app.post(
    '/auth/logout',
    {
      config: { scope: ANY_TOKEN },
      schema: {
        operationId: 'logout',
        tags,
        summary: 'Revoke the current session and its tokens',
        response: { 204: { type: 'null', description: 'logged out; empty body' } },
      },
    },
    async (request, reply) => {
      await auth.logout(request.ctx)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/auth/me',
    {
      config: { scope: ANY_TOKEN },
      schema: {
        operationId: 'getMe',
        tags,
        summary: 'The authenticated user',
        response: { 200: MeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await auth.me(request.ctx) }),
  )
}
