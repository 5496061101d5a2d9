import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, ListOf } from '../../platform/http/schemas.ts'
import { WebhookErrors } from './webhooks.errors.ts'
import {
  AttemptListQuery,
  BulkReplayBody,
  BulkReplayResult,
  DeliveryIdParams,
  EndpointListQuery,
  FailedListQuery,
  WebhookAttemptSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookIdParams,
} from './webhooks.schemas.ts'
import type { WebhooksService } from './webhooks.service.ts'

const tags = ['webhooks']
const scope = 'webhooks:write'
const Attempt = Type.Ref('WebhookAttempt')
const Delivery = Type.Ref('WebhookDelivery')
const Endpoint = Type.Ref('WebhookEndpoint')

/** `/webhooks/…`: the delivery log, failed events and their replay, suspended endpoints and re-enabling. */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.addSchema(WebhookAttemptSchema)
  app.addSchema(WebhookDeliverySchema)
  app.addSchema(WebhookEndpointSchema)

  app.get(
    '/webhooks/deliveries',
    {
      config: { scope },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary:
          'Delivery attempts, newest first, with status code, latency and error; filter by webhook, delivery, event, outcome',
        querystring: AttemptListQuery,
        response: { 200: ListOf(Attempt) },
      },
    },
    async (request) => webhooks.deliveries.listAttempts(request.ctx, request.query),
  )

  app.get(
    '/webhooks/failed',
    {
      config: { scope },
      schema: {
        operationId: 'listFailedWebhookEvents',
        tags,
        summary: 'Failed events of the last 72 hours, replayable',
        querystring: FailedListQuery,
        response: { 200: ListOf(Delivery) },
      },
    },
    async (request) => webhooks.deliveries.listFailed(request.ctx, request.query),
  )

  app.post(
    '/webhooks/failed/replay',
    {
      config: { scope },
      schema: {
        operationId: 'replayAllFailedWebhookEvents',
        tags,
        summary:
          'Replay every failed event of the last 72 hours (optionally of one webhook); suspended webhooks are skipped',
        body: BulkReplayBody,
        response: { 202: BulkReplayResult, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ data: await webhooks.deliveries.replayAll(request.ctx, request.body ?? {}) }),
  )

  app.post(
    '/webhooks/failed/:eventDeliveryId/replay',
    {
      config: { scope },
      schema: {
        operationId: 'replayFailedWebhookEvent',
        tags,
        summary: 'Replay one failed event: same id, same body, a fresh retry schedule',
        params: DeliveryIdParams,
        response: {
          202: DataOf(Delivery),
          ...errorResponses(404, WebhookErrors.DELIVERY_NOT_FAILED, WebhookErrors.ENDPOINT_SUSPENDED),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ data: await webhooks.deliveries.replay(request.ctx, request.params.eventDeliveryId) }),
  )

  app.get(
    '/webhooks/endpoints',
    {
      config: { scope },
      schema: {
        operationId: 'listWebhookEndpoints',
        tags,
        summary: 'Webhook endpoints of every integration; status=suspended lists those waiting to be re-enabled',
        querystring: EndpointListQuery,
        response: { 200: ListOf(Endpoint) },
      },
    },
    async (request) => webhooks.endpoints.list(request.ctx, request.query),
  )

  app.post(
    '/webhooks/endpoints/:webhookId/enable',
    {
      config: { scope },
      schema: {
        operationId: 'enableWebhookEndpoint',
        tags,
        summary: 'Re-enable a suspended webhook endpoint; its held deliveries resume',
        params: WebhookIdParams,
        response: { 200: DataOf(Endpoint), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await webhooks.endpoints.enable(request.ctx, request.params.webhookId) }),
  )
}
