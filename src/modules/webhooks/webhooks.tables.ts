/** Row types and column lists of the webhooks tables, once each. */

/** webhook_endpoints (db/migrations/0050_integrations_webhooks.sql; suspension notices and deletion: 0055). */
export interface EndpointRow {
  id: string
  org_id: string
  integration_id: string
  url: string
  events: string[]
  description: string
  status: 'active' | 'suspended'
  consecutive_failures: number
  suspended_at: Date | null
  suspension_reason: string | null
  suspension_notified_at: Date | null
  suspension_notified_by: string | null
  previous_secret_expires_at: Date | null
  failing_since: Date | null
  events_pending: number
  events_failed: number
  version: number
  created_at: Date
  updated_at: Date
}

export interface EndpointWithSecrets extends EndpointRow {
  secret: string
  previous_secret: string | null
}

/** The sealed secrets of one endpoint, as `opentill rotate-secrets-key` reads and rewrites them. */
export interface StoredSecretsRow {
  org_id: string
  id: string
  secret: string
  previous_secret: string | null
}

// An expired previous secret reads as none: its expiry shows only while it still signs. The events not delivered
// yet are counted where the endpoint is read (index webhook_deliveries_org_endpoint_waiting, db/migrations/0157):
// those on their way, and the failed ones still replayable (72 hours; the purge removes them later).
export const endpointColumns = `id, org_id, integration_id, url, events, description, status, consecutive_failures, suspended_at,
  suspension_reason, suspension_notified_at, suspension_notified_by,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
  failing_since,
  (SELECT count(*)::int FROM webhook_deliveries d
   WHERE d.org_id = webhook_endpoints.org_id AND d.endpoint_id = webhook_endpoints.id
     AND d.status = 'pending' AND NOT d.is_test) AS events_pending,
  (SELECT count(*)::int FROM webhook_deliveries d
   WHERE d.org_id = webhook_endpoints.org_id AND d.endpoint_id = webhook_endpoints.id
     AND d.status = 'failed' AND NOT d.is_test AND d.failed_at > now() - interval '72 hours') AS events_failed,
  version, created_at, updated_at`

/** webhook_deliveries (db/migrations/0050_integrations_webhooks.sql). */
export interface DeliveryRow {
  id: string
  org_id: string
  endpoint_id: string
  event_id: string | null
  event: string
  is_test: boolean
  status: 'pending' | 'succeeded' | 'failed'
  attempt_count: number
  next_attempt_at: Date
  last_status_code: number | null
  last_error: string | null
  replay_count: number
  created_at: Date
  completed_at: Date | null
  failed_at: Date | null
}

export const deliveryColumns = `id, org_id, endpoint_id, event_id, event, is_test, status, attempt_count, next_attempt_at, last_status_code,
  last_error, replay_count, created_at, completed_at, failed_at`

/** webhook_attempts (db/migrations/0050_integrations_webhooks.sql), with its delivery's event and event_id. */
export interface AttemptRow {
  id: string
  delivery_id: string
  endpoint_id: string
  attempt: number
  url: string
  succeeded: boolean
  status_code: number | null
  latency_ms: number
  error: string | null
  created_at: Date
  event: string
  event_id: string | null
}

/** A row of webhook_claim_attempts() (db/migrations/0050_integrations_webhooks.sql): a due delivery, leased. */
export interface ClaimedAttempt {
  id: string
  org_id: string
  endpoint_id: string
  event: string
  payload: string
  is_test: boolean
  attempt: number
  round_attempts: number
  url: string
  secret: string
  previous_secret: string | null
}

/** events, the outbox the relay fans out (db/migrations/0001_platform.sql). */
export interface OutboxEventRow {
  id: string
  type: string
  data: object
  created_at: Date
}
