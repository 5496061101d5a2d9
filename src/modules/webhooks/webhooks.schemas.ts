import { type Static, type TSchema, Type } from 'typebox'
import { PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String(),
    integration_id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String(), {
      description: 'event names as subscribed (aliases are delivered under the alias)',
    }),
    description: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
    consecutive_failures: Type.Integer({
      description: 'failed events in a row; 10 suspends the endpoint, any success resets it',
    }),
    suspended_at: Nullable(Timestamp),
    suspension_reason: Nullable(Type.String()),
    suspension_notified_at: Nullable(Timestamp),
    suspension_notified_by: Nullable(
      Type.String({ description: "how the owner was told of the suspension: 'email' or 'log'" }),
    ),
    previous_secret_expires_at: Nullable(
      Type.String({ format: 'date-time', description: 'while set, deliveries carry both signatures' }),
    ),
    failing_since: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'the first failed attempt since the last delivered event: the receiver has not answered since then; null while it answers (test pings do not count)',
      }),
    ),
    events_pending: Type.Integer({
      description: 'events on their way to it: queued or between retries (test pings not counted)',
    }),
    events_failed: Type.Integer({
      description: 'events that failed all their attempts and can still be replayed (72 hours)',
    }),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WebhookEndpoint' },
)

export const WebhookEndpointWithSecretSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({ description: 'whsec_…: the signing secret, shown only in this answer' }),
  },
  { $id: 'WebhookEndpointWithSecret' },
)

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({
      description:
        "the delivery id, sent as the webhook-id header: the same on every attempt (the envelope id is `event_id`, or this id for a test or an automation's payload)",
    }),
    webhook_id: Type.String(),
    event: Type.String(),
    event_id: Nullable(Type.String()),
    is_test: Type.Boolean(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Timestamp),
    last_status_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    replay_count: Type.Integer(),
    created_at: Timestamp,
    completed_at: Nullable(Timestamp),
    failed_at: Nullable(Timestamp),
    replayable_until: Nullable(Timestamp),
  },
  { $id: 'WebhookDelivery' },
)

export const WebhookAttemptSchema = Type.Object(
  {
    id: Type.String(),
    delivery_id: Type.String(),
    webhook_id: Type.String(),
    event: Type.String(),
    event_id: Nullable(Type.String()),
    attempt: Type.Integer({ description: '1 for the first attempt; replays continue the count' }),
    url: Type.String(),
    succeeded: Type.Boolean(),
    status_code: Nullable(Type.Integer()),
    latency_ms: Type.Integer(),
    error: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'WebhookAttempt' },
)

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    events: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type CreateWebhookBody = Static<typeof CreateWebhookBody>

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    events: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'the version you read; or send If-Match' })),
  },
  { additionalProperties: false },
)
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>
/** What an update changes: the expected version travels apart (the body's `version` or If-Match). */
export type WebhookChanges = Omit<UpdateWebhookBody, 'version'>

export const TestWebhookBody = Type.Object(
  {
    event: Type.String({ minLength: 1, maxLength: 100 }),
    webhookId: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
)
export type TestWebhookBody = Static<typeof TestWebhookBody>

export const WebhookParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  webhookId: Type.String({ minLength: 1, maxLength: 100 }),
})

export const WebhookIdParams = Type.Object({ webhookId: Type.String({ minLength: 1, maxLength: 100 }) })

export const DeliveryIdParams = Type.Object({ eventDeliveryId: Type.String({ minLength: 1, maxLength: 100 }) })

export const AttemptListQuery = Type.Object(
  {
    ...PageQuery,
    webhook_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    delivery_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    event: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    succeeded: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type AttemptListQuery = Static<typeof AttemptListQuery>

export const FailedListQuery = Type.Object(
  { ...PageQuery, webhook_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
)
export type FailedListQuery = Static<typeof FailedListQuery>

export const EndpointListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])) },
  { additionalProperties: false },
)
export type EndpointListQuery = Static<typeof EndpointListQuery>

export const BulkReplayBody = Type.Object(
  { webhook_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
)
export type BulkReplayBody = Static<typeof BulkReplayBody>

export const BulkReplayResult = Type.Object({
  data: Type.Object({ replayed: Type.Integer(), ids: Type.Array(Type.String()) }),
})
export type BulkReplayResult = Static<typeof BulkReplayResult>
