import type { Static } from 'typebox'
import type { Dated } from '../../platform/http/schemas.ts'
import type { WebhookAttemptSchema, WebhookDeliverySchema, WebhookEndpointSchema } from './webhooks.schemas.ts'
import type { AttemptRow, DeliveryRow, EndpointRow } from './webhooks.tables.ts'

/** The API's shapes of the webhooks module's rows (the secret never leaves through these). */

/** An endpoint as the API shows it (never its secrets); timestamps are Dates until the serializer writes them. */
export type WebhookEndpoint = Dated<
  Static<typeof WebhookEndpointSchema>,
  | 'suspended_at'
  | 'suspension_notified_at'
  | 'previous_secret_expires_at'
  | 'failing_since'
  | 'created_at'
  | 'updated_at'
>

export type WebhookDelivery = Dated<
  Static<typeof WebhookDeliverySchema>,
  'next_attempt_at' | 'created_at' | 'completed_at' | 'failed_at' | 'replayable_until'
>

export type WebhookAttempt = Dated<Static<typeof WebhookAttemptSchema>, 'created_at'>

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    integration_id: row.integration_id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    consecutive_failures: row.consecutive_failures,
    suspended_at: row.suspended_at,
    suspension_reason: row.suspension_reason,
    suspension_notified_at: row.suspension_notified_at,
    suspension_notified_by: row.suspension_notified_by,
    previous_secret_expires_at: row.previous_secret_expires_at,
    failing_since: row.failing_since,
    events_pending: row.events_pending,
    events_failed: row.events_failed,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

const REPLAY_WINDOW_MS = 72 * 3_600_000

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.endpoint_id,
    event: row.event,
    event_id: row.event_id,
    is_test: row.is_test,
    status: row.status,
    attempts: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    replay_count: row.replay_count,
    created_at: row.created_at,
    completed_at: row.completed_at,
    failed_at: row.failed_at,
    replayable_until: row.failed_at && !row.is_test ? new Date(row.failed_at.getTime() + REPLAY_WINDOW_MS) : null,
  }
}

export function toAttempt(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    delivery_id: row.delivery_id,
    webhook_id: row.endpoint_id,
    event: row.event,
    event_id: row.event_id,
    attempt: row.attempt,
    url: row.url,
    succeeded: row.succeeded,
    status_code: row.status_code,
    latency_ms: row.latency_ms,
    error: row.error,
    created_at: row.created_at,
  }
}
