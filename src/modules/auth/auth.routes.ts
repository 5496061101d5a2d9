import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ANY_TOKEN } from '../../platform/http/authenticate.ts'
import { EmptyBody, errorResponses } from '../../platform/http/schemas.ts'
import {
  loginAccountLimit,
  loginAddressLimit,
  passwordResetLimit,
  type RateLimitStore,
} from '../../platform/rate-limit/index.ts'
import { AuthErrors } from './auth.errors.ts'
import { LoginBody, LoginSessionSchema, MeSchema, RefreshBody } from './auth.schemas.ts'
import type { AuthService } from './auth.service.ts'
import type { InvitationsService } from './invitations.service.ts'
import type { PasswordsService } from './passwords.service.ts'
import {
  AcceptedInvitationSchema,
  AcceptInvitationBody,
  ChangePasswordBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
} from './users.schemas.ts'

const tags = ['auth']

export const authRoutes: FastifyPluginAsyncTypebox<{
  auth: AuthService
  invitations: InvitationsService
  passwords: PasswordsService
  store: RateLimitStore
}> = async (app, { auth, invitations, passwords, store }) => {
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
        response: { 200: LoginSessionSchema, ...errorResponses(401, AuthErrors.ORG_REQUIRED, 429) },
      },
    },
    async (request) => ({
      data: await auth.login(request.body.email, request.body.password, request.body.org_id),
    }),
  )

  app.post(
    '/auth/refresh',
    {
      config: { scope: false },
      schema: {
        operationId: 'refreshLogin',
        tags,
        summary:
          "Rotate a refresh token: a new access token with the user's current role's scopes, and a new refresh token",
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
        response: { 204: EmptyBody('logged out') },
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

  app.post(
    '/auth/password',
    {
      config: { scope: ANY_TOKEN },
      schema: {
        operationId: 'changePassword',
        tags,
        summary: "Change the signed-in user's password with the current one; the user's other sessions end",
        body: ChangePasswordBody,
        response: { 204: EmptyBody('changed'), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      await passwords.change(request.ctx, request.body.current_password, request.body.new_password)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/auth/password-reset',
    {
      config: { scope: false },
      schema: {
        operationId: 'requestPasswordReset',
        tags,
        summary:
          'E-mail a single-use link (30 minutes) to reset the password; the same answer whether or not the address is registered',
        security: [],
        body: PasswordResetBody,
        response: {
          202: EmptyBody('accepted; a link is on its way if the address belongs to an active user'),
          ...errorResponses(429),
        },
      },
    },
    async (request, reply) => {
      await passwordResetLimit(store, request.ip, request.body.email)
      passwords.requestReset(request.body.email, request.log)
      return reply.code(202).send(null)
    },
  )

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { scope: false },
      schema: {
        operationId: 'confirmPasswordReset',
        tags,
        summary: "Set a new password with a reset link's token (once); every session of the user ends",
        security: [],
        body: PasswordResetConfirmBody,
        response: { 204: EmptyBody('the password is set'), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      await passwords.confirmReset(request.body.token, request.body.password)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/auth/invitations/accept',
    {
      config: { scope: false },
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: 'Make the invited account with its password, with the token of the invitation link (once)',
        description: 'A 409 EMAIL_TAKEN when the invited e-mail already has an account; the link stays usable.',
        security: [],
        body: AcceptInvitationBody,
        response: { 200: AcceptedInvitationSchema, ...errorResponses(AuthErrors.EMAIL_TAKEN, 429) },
      },
    },
    async (request, reply) => {
      // An invitation to an existing account checks its password: the sign-in limits apply.
      await loginAddressLimit(store, request.ip, reply)
      const { token, password } = request.body
      return { data: await invitations.accept(token, password, (email) => loginAccountLimit(store, email, reply)) }
    },
  )
}
