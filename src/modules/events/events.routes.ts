import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { EventEnvelopeSchema } from '../../platform/events/catalog.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { EventListQuery } from './events.schemas.ts'
import type { EventsService } from './events.service.ts'

const tags = ['events']
const Envelope = Type.Ref('EventEnvelope')

/**
 * The events API is the integration surface beside webhooks, so it takes the integrations scope
 * (`webhooks:write`, docs/decisions.md "Scopes") rather than a new one: whoever may subscribe to events may read them.
 */
const scope = 'webhooks:write'

export const eventRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  app.addSchema(EventEnvelopeSchema)

  app.get(
    '/events',
    {
      config: { scope },
      schema: {
        operationId: 'listEvents',
        tags,
        summary: 'Every event of the org for 30 days, in commit order, filtered by type and time',
        querystring: EventListQuery,
        response: { 200: ListOf(Envelope) },
      },
    },
    async (request) => events.list(request.ctx, request.query),
  )

  app.get(
    '/events/:id',
    {
      config: { scope },
      schema: {
        operationId: 'getEvent',
        tags,
        summary: 'One event',
        params: IdParams,
        response: { 200: DataOf(Envelope), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await events.get(request.ctx, request.params.id) }),
  )
}
