import { type Static, Type } from 'typebox'
import { PageQuery } from '../../platform/http/schemas.ts'

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
