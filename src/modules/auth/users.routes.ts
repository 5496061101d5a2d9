import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, EmptyBody, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { AuthErrors } from './auth.errors.ts'
import {
  InvitationListQuery,
  InvitationSchema,
  InviteUserBody,
  SentInvitationSchema,
  UpdateUserBody,
  UserListQuery,
  UserSchema,
} from './users.schemas.ts'
import type { UsersService } from './users.service.ts'

const tags = ['users']
const User = Type.Ref('User')

/** Staff accounts (docs/people-and-settings.md): owners manage everyone, managers staff only. */
export const userRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  app.addSchema(UserSchema)
  app.addSchema(InvitationSchema)
  app.addSchema(SentInvitationSchema)

  app.get(
    '/users',
    {
      config: { scope: 'users:read' },
      schema: {
        operationId: 'listUsers',
        tags,
        summary: "The org's users, by role and status",
        querystring: UserListQuery,
        response: { 200: ListOf(User) },
      },
    },
    async (request) => users.list(request.ctx, request.query),
  )

  app.post(
    '/users',
    {
      config: { scope: 'users:write', idempotency: { notStored: ['data.url'] } },
      schema: {
        operationId: 'inviteUser',
        tags,
        summary:
          'Invite a person by e-mail with a role: the link goes by e-mail, or (without SMTP) comes back in `url`; the account exists once accepted',
        body: InviteUserBody,
        response: {
          201: DataOf(Type.Ref('SentInvitation')),
          ...errorResponses(AuthErrors.ROLE_NOT_ALLOWED, AuthErrors.EMAIL_TAKEN),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await users.invite(request.ctx, request.body) }),
  )

  app.get(
    '/users/invitations',
    {
      config: { scope: 'users:read' },
      schema: {
        operationId: 'listInvitations',
        tags,
        summary: 'Invitations not yet accepted nor revoked (expired ones say so)',
        querystring: InvitationListQuery,
        response: { 200: ListOf(Type.Ref('Invitation')) },
      },
    },
    async (request) => users.pendingInvitations(request.ctx, request.query),
  )

  app.delete(
    '/users/invitations/:id',
    {
      config: { scope: 'users:write' },
      schema: {
        operationId: 'revokeInvitation',
        tags,
        summary: 'Revoke a pending invitation: its link stops working',
        params: IdParams,
        response: {
          204: EmptyBody('revoked'),
          ...errorResponses(404, AuthErrors.ROLE_NOT_ALLOWED),
        },
      },
    },
    async (request, reply) => {
      await users.revokeInvitation(request.ctx, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/users/:id',
    {
      config: { scope: 'users:read' },
      schema: {
        operationId: 'getUser',
        tags,
        summary: 'One user',
        params: IdParams,
        response: { 200: DataOf(User), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await users.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/users/:id',
    {
      config: { scope: 'users:write' },
      schema: {
        operationId: 'updateUser',
        tags,
        summary:
          'Rename, change the role of, deactivate (active: false) or reactivate a user; a role change or a deactivation ends their sessions at once',
        params: IdParams,
        body: UpdateUserBody,
        response: {
          200: DataOf(User),
          ...errorResponses(404, AuthErrors.ROLE_NOT_ALLOWED, AuthErrors.LAST_OWNER, STALE_VERSION),
        },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await users.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )
}
