import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { AuthErrors } from '../auth/index.ts'
import type { InvitationsService } from './invitations.service.ts'
import {
  AcceptedInvitationSchema,
  AcceptInvitationBody,
  CreatedTenantSchema,
  CreateTenantBody,
  TenantListQuery,
  TenantSchema,
} from './partners.schemas.ts'
import type { PartnersService } from './partners.service.ts'

const Tenant = Type.Ref('PartnerTenant')
const CreatedTenant = Type.Ref('PartnerTenantCreated')
/** A partner credential (client credentials of a partner app), never a merchant token (docs/decisions.md "Scopes"). */
const scope = 'partners:write'

export const partnerRoutes: FastifyPluginAsyncTypebox<{
  partners: PartnersService
  invitations: InvitationsService
}> = async (app, { partners, invitations }) => {
  app.addSchema(TenantSchema)
  app.addSchema(CreatedTenantSchema)

  app.post(
    '/partners/tenants',
    {
      config: { scope, idempotency: { notStored: ['invitation.url'] } },
      schema: {
        operationId: 'provisionTenant',
        tags: ['partners'],
        summary:
          'Provision a reseller tenant: an org with its plan and currency, an owner invitation, and a connection to this app',
        body: CreateTenantBody,
        response: { 201: DataOf(CreatedTenant) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await partners.createTenant(request.ctx, request.body) }),
  )

  app.get(
    '/partners/tenants',
    {
      config: { scope, idempotency: { notStored: ['invitation.url'] } },
      schema: {
        operationId: 'listTenants',
        tags: ['partners'],
        summary: 'The tenants this partner app provisioned, oldest first',
        querystring: TenantListQuery,
        response: { 200: ListOf(Tenant) },
      },
    },
    async (request) => partners.listTenants(request.ctx, request.query),
  )

  app.get(
    '/partners/tenants/:id',
    {
      config: { scope },
      schema: {
        operationId: 'getTenant',
        tags: ['partners'],
        summary: 'One provisioned tenant',
        params: IdParams,
        response: { 200: DataOf(Tenant), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await partners.getTenant(request.ctx, request.params.id) }),
  )

  app.post(
    '/auth/invitations/accept',
    {
      config: { scope: false },
      schema: {
        operationId: 'acceptInvitation',
        tags: ['auth'],
        summary: 'Make the invited account with its password, with the token of the invitation link (once)',
        description: 'A 409 EMAIL_TAKEN when the invited e-mail already has an account; the link stays usable.',
        security: [],
        body: AcceptInvitationBody,
        response: { 200: AcceptedInvitationSchema, ...errorResponses(AuthErrors.EMAIL_TAKEN) },
      },
    },
    async (request) => ({ data: await invitations.accept(request.body.token, request.body.password) }),
  )
}
