import { type Static, Type } from 'typebox'
import { PageQuery, Timestamp } from '../../platform/http/schemas.ts'

/** The webhook envelope of SPEC (docs/decisions.md) "Events", so a missed delivery and its recovery look the same. */
export const EventEnvelopeSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_… identifier; the same id as the webhook delivery of this event' }),
    event: Type.String({ description: 'event name, e.g. order.created' }),
    orgId: Type.String(),
    timestamp: Timestamp,
    apiVersion: Type.String({ description: 'date-formatted API version of the payload' }),
    data: Type.Object(
      {},
      { additionalProperties: true, description: 'the affected resource as the REST API shows it' },
    ),
  },
  { $id: 'EventEnvelope' },
)

const EventName = Type.String({ pattern: '^[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+)*$', maxLength: 500 })

export const EventListQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(
      Type.Array(EventName, {
        maxItems: 30,
        description: 'event names to include; repeat the parameter or separate names with commas',
      }),
    ),
    created_from: Type.Optional(Type.String({ format: 'date-time', description: 'events at or after this time' })),
    created_to: Type.Optional(Type.String({ format: 'date-time', description: 'events before this time' })),
  },
  { additionalProperties: false },
)
export type EventListQuery = Static<typeof EventListQuery>
