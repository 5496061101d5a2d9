import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import {
  CreateWebhookBody,
  TestWebhookBody,
  UpdateWebhookBody,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookParams,
} from '../webhooks/index.ts'
import {
  CreateIntegrationBody,
  IntegrationListQuery,
  IntegrationSchema,
  WebhookListQuery,
} from './integrations.schemas.ts'
import type { IntegrationsService } from './integrations.service.ts'

const tags = ['integrations']
// docs/decisions.md "Scopes": webhooks:write for every integrations and webhooks endpoint, reads included.
const scope = 'webhooks:write'
const Integration = Type.Ref('Integration')
const Endpoint = Type.Ref('WebhookEndpoint')
const EndpointWithSecret = Type.Ref('WebhookEndpointWithSecret')
const Delivery = Type.Ref('WebhookDelivery')

export const integrationRoutes: FastifyPluginAsyncTypebox<{ integrations: IntegrationsService }> = async (
  app,
  { integrations },
) => {
  app.addSchema(IntegrationSchema)
  app.addSchema(WebhookEndpointSchema)
  app.addSchema(WebhookEndpointWithSecretSchema)
  app.addSchema(WebhookDeliverySchema)

  app.get(
    '/integrations',
    {
      config: { scope },
      schema: {
        operationId: 'listIntegrations',
        tags,
        summary: 'List installed integrations, in installation order',
        querystring: IntegrationListQuery,
        response: { 200: ListOf(Integration) },
      },
    },
    async (request) => integrations.list(request.ctx, request.query),
  )

  app.post(
    '/integrations',
    {
      config: { scope },
      schema: {
        operationId: 'createIntegration',
        tags,
        summary: 'Install an integration (name, type, config)',
        body: CreateIntegrationBody,
        response: { 201: DataOf(Integration) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await integrations.install(request.ctx, request.body) }),
  )

  app.get(
    '/integrations/:id',
    {
      config: { scope },
      schema: {
        operationId: 'getIntegration',
        tags,
        summary: 'One integration',
        params: IdParams,
        response: { 200: DataOf(Integration), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await integrations.get(request.ctx, request.params.id) }),
  )

  app.get(
    '/integrations/:id/webhooks',
    {
      config: { scope, idempotency: { notStored: ['data.secret'] } },
      schema: {
        operationId: 'listIntegrationWebhooks',
        tags,
        summary: 'List the webhook endpoints of an integration',
        params: IdParams,
        querystring: WebhookListQuery,
        response: { 200: ListOf(Endpoint), ...errorResponses(404) },
      },
    },
    async (request) => integrations.listWebhooks(request.ctx, request.params.id, request.query),
  )

  app.post(
    '/integrations/:id/webhooks',
    {
      config: { scope, idempotency: { notStored: ['data.secret'] } },
      schema: {
        operationId: 'createIntegrationWebhook',
        tags,
        summary: 'Register an HTTPS webhook endpoint; the signing secret is shown only in this answer',
        params: IdParams,
        body: CreateWebhookBody,
        response: { 201: DataOf(EndpointWithSecret), ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await integrations.registerWebhook(request.ctx, request.params.id, request.body) }),
  )

  app.post(
    '/integrations/:id/webhooks/test',
    {
      config: { scope },
      schema: {
        operationId: 'testIntegrationWebhook',
        tags,
        summary: 'Send a signed synthetic payload of an event to one webhook (one attempt, shown in the delivery log)',
        params: IdParams,
        body: TestWebhookBody,
        response: { 202: DataOf(Delivery), ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ data: await integrations.testWebhook(request.ctx, request.params.id, request.body) }),
  )

  app.get(
    '/integrations/:id/webhooks/:webhookId',
    {
      config: { scope },
      schema: {
        operationId: 'getIntegrationWebhook',
        tags,
        summary: 'One webhook endpoint',
        params: WebhookParams,
        response: { 200: DataOf(Endpoint), ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await integrations.getWebhook(request.ctx, request.params.id, request.params.webhookId),
    }),
  )

  app.post(
    '/integrations/:id/webhooks/:webhookId/rotate-secret',
    {
      config: { scope, idempotency: { notStored: ['data.secret'] } },
      schema: {
        operationId: 'rotateIntegrationWebhookSecret',
        tags,
        summary:
          'Issue a new signing secret; for 24 hours deliveries carry signatures with both the new and the old one',
        params: WebhookParams,
        response: { 200: DataOf(EndpointWithSecret), ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await integrations.rotateWebhookSecret(request.ctx, request.params.id, request.params.webhookId),
    }),
  )

  app.delete(
    '/integrations/:id',
    {
      config: { scope },
      schema: {
        operationId: 'deleteIntegration',
        tags,
        summary: 'Uninstall an integration: its webhook endpoints stop receiving; their delivery log stays',
        params: IdParams,
        response: { 204: Type.Null({ description: 'uninstalled' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await integrations.uninstall(request.ctx, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.patch(
    '/integrations/:id/webhooks/:webhookId',
    {
      config: { scope },
      schema: {
        operationId: 'updateIntegrationWebhook',
        tags,
        summary: "Change a webhook endpoint's url, events or description (version in the body or If-Match)",
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: DataOf(Endpoint), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...changes } = request.body
      return {
        data: await integrations.updateWebhook(
          request.ctx,
          request.params.id,
          request.params.webhookId,
          changes,
          expectedVersion(request, version),
        ),
      }
    },
  )

  app.delete(
    '/integrations/:id/webhooks/:webhookId',
    {
      config: { scope },
      schema: {
        operationId: 'deleteIntegrationWebhook',
        tags,
        summary: 'Delete a webhook endpoint: nothing more is delivered to it; its delivery log stays',
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await integrations.deleteWebhook(request.ctx, request.params.id, request.params.webhookId)
      return reply.code(204).send(null)
    },
  )
}
