import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { badRequest } from '../../platform/errors/app-error.ts'
import { errorResponses } from '../../platform/http/schemas.ts'
import { type FeedCursor, parseCursor } from './feed-cursor.ts'
import { KdsErrors } from './kds.errors.ts'
import { EventStreamSchema, KdsStreamHeaders, KdsStreamQuery } from './kds.schemas.ts'
import type { KdsService } from './kds.service.ts'
import { ScreenStream } from './screen-stream.ts'

export const kdsRoutes: FastifyPluginAsyncTypebox<{ kds: KdsService }> = async (app, { kds }) => {
  kds.useLogger(app.log)
  // Open streams would keep app.close() waiting for their connections: end them first.
  app.addHook('preClose', async () => {
    await kds.closeAll()
  })

  app.get(
    '/kds/stream',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'streamKitchenOrders',
        tags: ['kds'],
        summary: 'Kitchen display feed: the org’s orders live as Server-Sent Events, resumable with Last-Event-ID',
        querystring: KdsStreamQuery,
        headers: KdsStreamHeaders,
        produces: ['text/event-stream'],
        response: {
          200: EventStreamSchema,
          ...errorResponses(KdsErrors.STREAM_LIMIT, KdsErrors.CREDENTIAL_STREAM_LIMIT),
        },
      },
    },
    async (request, reply) => {
      const { ctx } = request
      const resumeText = request.headers['last-event-id'] || request.query.last_event_id
      const resumeFrom = resumeText ? parseCursor(resumeText) : undefined
      if (resumeText && !resumeFrom) {
        throw badRequest('Last-Event-ID is not an id of this feed', [
          { field: 'Last-Event-ID', message: 'is not an event id of this feed', code: 'invalid_cursor' },
        ])
      }
      const seat = await kds.takeSeat(ctx.orgId, ctx.sessionId)
      const screen = new ScreenStream(ctx.orgId, request.query.location_id, reply.raw, (s) => {
        kds.detach(s)
        seat.release()
      })
      let start: FeedCursor
      try {
        await kds.attach(screen)
        // Before the headers: a client that acts on the open event (or an order placed after it) is after this.
        start = resumeFrom ?? (await kds.head())
      } catch (error) {
        kds.detach(screen)
        seat.release()
        throw error
      }
      reply.hijack()
      screen.startAfter(start)
      screen.open(reply.getHeaders(), kds.options.heartbeatMs, {
        endsAtMs: (ctx.credentialExpiresAt ?? Number.POSITIVE_INFINITY) * 1000,
        stands: async () => {
          await seat.refresh()
          return kds.sessionStands(ctx.sessionId)
        },
      })
      try {
        if (resumeFrom) await kds.replay(ctx, resumeFrom, request.query.location_id, (events) => screen.replay(events))
        screen.goLive()
      } catch (error) {
        // Headers are gone; the client reconnects with the last id it saw and nothing is lost.
        request.log.error({ err: error }, 'kitchen feed replay failed')
        screen.close()
      }
    },
  )
}
