import { Type } from 'typebox'

export const KdsStreamQuery = Type.Object(
  {
    location_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'only orders of this location' }),
    ),
    last_event_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'resume after this event id, for clients that cannot send the Last-Event-ID header',
      }),
    ),
  },
  { additionalProperties: false },
)

export const KdsStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ maxLength: 64, description: 'resume after this event id (`id:` of a message)' }),
  ),
})

export const EventStreamSchema = Type.String({
  description:
    'text/event-stream: messages with `id:` (resumable cursor), `event:` (order.created, order.updated, order.completed, order.voided) and `data:` (the order as JSON); a `: heartbeat` comment every 15 s',
})
