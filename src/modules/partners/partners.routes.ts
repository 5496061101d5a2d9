import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CreatedTenantSchema, CreateTenantBody, TenantListQuery, TenantSchema } from './partners.schemas.ts'
import type { PartnersService } from './partners.service.ts'

const Tenant = Type.Ref('PartnerTenant')
const CreatedTenant = Type.Ref('PartnerTenantCreated')
/** A partner credential (client credentials of a partner app), never a merchant token (docs/decisions.md "Scopes"). */
const scope = 'partners:write'

export const partnerRoutes: FastifyPluginAsyncTypebox<{ partners: PartnersService }> = async (app, { partners }) => {
  app.addSchema(TenantSchema)
  app.addSchema(CreatedTenantSchema)

  app.post(
    '/partners/tenants',
    {
      config: { scope, idempotency: { notStored: ['data.invitation.url'] } },
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
      config: { scope, idempotency: { notStored: ['data.invitation.url'] } },
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
}
