import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { DataOf, EmptyBody, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CustomerErrors } from './customers.errors.ts'
import {
  CustomerListQuery,
  CustomerProfileSchema,
  CustomerSchema,
  RewardsSchema,
  UpdateCustomerBody,
  UpsertCustomerBody,
} from './customers.schemas.ts'
import type { CustomersService } from './customers.service.ts'

const tags = ['customers']
const Customer = Type.Ref('Customer')

/** The rewards endpoint was deprecated in v1.1.0 (2024-07-01); it answers until its sunset. */
const REWARDS_DEPRECATED_AT = Date.UTC(2024, 6, 1) / 1000
const REWARDS_SUNSET = 'Fri, 01 Oct 2027 00:00:00 GMT'

/** The loyalty facts the deprecated rewards endpoint shows (wired to loyalty in app.ts). */
interface RewardsSource {
  summaryOf(
    ctx: RequestContext,
    customerId: string,
  ): Promise<{ memberId: string; balance: number; tier: string | null } | null>
}

/** The customers service, and the use cases that take other domains with it (src/flows). */
interface CustomerRoutesOptions {
  customers: CustomersService
  rewards: RewardsSource
  /** The profile with the purchases the orders module counts (flows/customer-profile.ts). */
  profile(ctx: RequestContext, customerId: string): ReturnType<CustomersService['profile']>
  /** An erasure, with the events, deliveries and runs that kept the customer's data (flows/erase-customer.ts). */
  erase(ctx: RequestContext, customerId: string): Promise<void>
}

export const customerRoutes: FastifyPluginAsyncTypebox<CustomerRoutesOptions> = async (
  app,
  { customers, rewards, profile, erase },
) => {
  app.addSchema(CustomerSchema)
  app.addSchema(CustomerProfileSchema)

  app.get(
    '/customers',
    {
      config: { scope: 'customers:read' },
      schema: {
        operationId: 'listCustomers',
        tags,
        summary: 'Search and list customers (q matches name, e-mail and phone)',
        querystring: CustomerListQuery,
        response: { 200: ListOf(Customer) },
      },
    },
    async (request) => customers.list(request.ctx, request.query),
  )

  app.post(
    '/customers',
    {
      config: { scope: 'customers:write' },
      schema: {
        operationId: 'createCustomer',
        tags,
        summary: 'Create a customer, or update the one with the same e-mail (else phone): 201 created, 200 matched',
        body: UpsertCustomerBody,
        response: {
          200: DataOf(Customer),
          201: DataOf(Customer),
          ...errorResponses(CustomerErrors.CONTACT_TAKEN),
        },
      },
    },
    async (request, reply) => {
      const { customer, created } = await customers.upsert(request.ctx, request.body)
      return reply.code(created ? 201 : 200).send({ data: customer })
    },
  )

  app.get(
    '/customers/:id',
    {
      config: { scope: 'customers:read' },
      schema: {
        operationId: 'getCustomer',
        tags,
        summary: 'A customer profile with its purchase history summary',
        params: IdParams,
        response: { 200: DataOf(Type.Ref('CustomerProfile')), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await profile(request.ctx, request.params.id) }),
  )

  app.delete(
    '/customers/:id',
    {
      config: { scope: 'customers:write' },
      schema: {
        operationId: 'eraseCustomer',
        tags,
        summary:
          'Erase a customer on request (owners and managers): personal fields blanked everywhere they are kept; orders keep the id and amounts',
        params: IdParams,
        response: { 204: EmptyBody('erased'), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await erase(request.ctx, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.patch(
    '/customers/:id',
    {
      config: { scope: 'customers:write' },
      schema: {
        operationId: 'updateCustomer',
        tags,
        summary: 'Update fields and preferences; If-Match or version guards against lost updates',
        params: IdParams,
        body: UpdateCustomerBody,
        response: {
          200: DataOf(Customer),
          ...errorResponses(404, STALE_VERSION, CustomerErrors.CONTACT_TAKEN, CustomerErrors.CHANGED_CONCURRENTLY),
        },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await customers.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )

  app.get(
    '/customers/:id/rewards',
    {
      config: { scope: 'customers:read' },
      schema: {
        operationId: 'getCustomerRewards',
        tags,
        deprecated: true,
        summary: 'Deprecated: use GET /api/v1/loyalty/members/:customerId',
        params: IdParams,
        response: { 200: DataOf(RewardsSchema), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const customer = await customers.get(request.ctx, request.params.id)
      const member = await rewards.summaryOf(request.ctx, customer.id)
      const successor = `/api/v1/loyalty/members/${encodeURIComponent(customer.id)}`
      // RFC 9745 Deprecation (a date as @epoch-seconds), RFC 8594 Sunset, and the successor as a Link.
      reply.header('deprecation', `@${REWARDS_DEPRECATED_AT}`)
      reply.header('sunset', REWARDS_SUNSET)
      reply.header('link', `<${successor}>; rel="successor-version"`)
      return {
        data: {
          customer_id: customer.id,
          loyalty_member_id: member?.memberId ?? customer.loyalty_member_id,
          points_balance: member?.balance ?? 0,
          tier: member?.tier ?? null,
          member_url: successor,
        },
      }
    },
  )
}
