import type { Queryable } from '../../platform/db/database.ts'
import { type AttemptRow, type DeliveryRow, deliveryColumns } from './webhooks.tables.ts'

export interface NewDelivery {
  id: string
  orgId: string
  endpointId: string
  eventId: string | null
  event: string
  payload: string
  isTest: boolean
}

/** How long a failed delivery stays replayable (SPEC: 72 hours). */
const REPLAYABLE = `failed_at > now() - interval '72 hours'`

export async function insertDeliveries(q: Queryable, rows: readonly NewDelivery[]): Promise<void> {
  if (rows.length === 0) return
  await q.query(
    `INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event, payload, is_test)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[])`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.orgId),
      rows.map((r) => r.endpointId),
      rows.map((r) => r.eventId),
      rows.map((r) => r.event),
      rows.map((r) => r.payload),
      rows.map((r) => r.isTest),
    ],
  )
}

export async function deliveryById(q: Queryable, orgId: string, id: string): Promise<DeliveryRow | undefined> {
  const result = await q.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM webhook_deliveries WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function insertAttempt(
  q: Queryable,
  orgId: string,
  a: {
    id: string
    deliveryId: string
    endpointId: string
    attempt: number
    url: string
    succeeded: boolean
    statusCode: number | null
    latencyMs: number
    error: string | null
  },
): Promise<void> {
  await q.query(
    `INSERT INTO webhook_attempts (id, org_id, delivery_id, endpoint_id, attempt, url, succeeded, status_code, latency_ms, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [a.id, orgId, a.deliveryId, a.endpointId, a.attempt, a.url, a.succeeded, a.statusCode, a.latencyMs, a.error],
  )
}

/**
 * Settles the attempt `attempt` of a delivery. Matching the attempt number means a late answer from an attempt
 * whose lease expired cannot overwrite what a newer attempt decided. Returns false when nothing matched.
 */
export async function settleAttempt(
  q: Queryable,
  orgId: string,
  id: string,
  attempt: number,
  outcome: {
    status: 'succeeded' | 'failed' | 'pending'
    retryInMs?: number
    statusCode: number | null
    error: string | null
  },
): Promise<boolean> {
  const result = await q.query(
    `UPDATE webhook_deliveries
     SET status = $4, locked_until = NULL, last_status_code = $5, last_error = $6,
         next_attempt_at = CASE WHEN $4 = 'pending' THEN now() + make_interval(secs => $7::float8 / 1000) ELSE next_attempt_at END,
         completed_at = CASE WHEN $4 = 'succeeded' THEN now() ELSE completed_at END,
         failed_at = CASE WHEN $4 = 'failed' THEN now() ELSE NULL END
     WHERE org_id = $1 AND id = $2 AND attempt_count = $3 AND status = 'pending'`,
    [orgId, id, attempt, outcome.status, outcome.statusCode, outcome.error, outcome.retryInMs ?? 0],
  )
  return (result.rowCount ?? 0) > 0
}

interface FailedFilter {
  endpointId?: string
  afterId?: string
  limit: number
}

export async function listFailed(q: Queryable, orgId: string, f: FailedFilter): Promise<DeliveryRow[]> {
  const result = await q.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM webhook_deliveries
     WHERE org_id = $1 AND status = 'failed' AND NOT is_test AND ${REPLAYABLE}
       AND ($2::text IS NULL OR endpoint_id = $2) AND ($3::text IS NULL OR id > $3)
       AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE org_id = $1 AND status <> 'deleted')
     ORDER BY id LIMIT $4`,
    [orgId, f.endpointId ?? null, f.afterId ?? null, f.limit],
  )
  return result.rows
}

/** Puts failed deliveries (one, or all of an endpoint or org) back in line with a fresh retry schedule. */
export async function replayFailed(
  q: Queryable,
  orgId: string,
  f: { id?: string; endpointId?: string },
): Promise<DeliveryRow[]> {
  const result = await q.query<DeliveryRow>(
    `UPDATE webhook_deliveries
     SET status = 'pending', round_attempts = 0, next_attempt_at = now(), locked_until = NULL,
         failed_at = NULL, replay_count = replay_count + 1
     WHERE org_id = $1 AND status = 'failed' AND NOT is_test AND ${REPLAYABLE}
       AND ($2::text IS NULL OR id = $2) AND ($3::text IS NULL OR endpoint_id = $3)
       AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE org_id = $1 AND status = 'active')
     RETURNING ${deliveryColumns}`,
    [orgId, f.id ?? null, f.endpointId ?? null],
  )
  return result.rows
}

interface AttemptFilter {
  endpointId?: string
  deliveryId?: string
  event?: string
  succeeded?: boolean
  beforeId?: string
  limit: number
}

/** The delivery log, newest first. */
export async function listAttempts(q: Queryable, orgId: string, f: AttemptFilter): Promise<AttemptRow[]> {
  const result = await q.query<AttemptRow>(
    `SELECT a.id, a.delivery_id, a.endpoint_id, a.attempt, a.url, a.succeeded, a.status_code, a.latency_ms, a.error, a.created_at,
            d.event, d.event_id
     FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id AND d.org_id = a.org_id
     WHERE a.org_id = $1 AND ($2::text IS NULL OR a.endpoint_id = $2) AND ($3::text IS NULL OR a.delivery_id = $3)
       AND ($4::text IS NULL OR d.event = $4) AND ($5::boolean IS NULL OR a.succeeded = $5)
       AND ($6::text IS NULL OR a.id < $6)
     ORDER BY a.id DESC LIMIT $7`,
    [
      orgId,
      f.endpointId ?? null,
      f.deliveryId ?? null,
      f.event ?? null,
      f.succeeded ?? null,
      f.beforeId ?? null,
      f.limit,
    ],
  )
  return result.rows
}

/**
 * Ends the pending deliveries of deleted endpoints: they will never be sent. Settled as failed, they are purged
 * with other failed events after 72 hours; replay and the failed list skip deleted endpoints.
 */
export async function cancelPending(q: Queryable, orgId: string, endpointIds: readonly string[]): Promise<number> {
  if (endpointIds.length === 0) return 0
  const result = await q.query(
    `UPDATE webhook_deliveries
     SET status = 'failed', locked_until = NULL, last_error = 'the webhook endpoint was deleted', failed_at = now()
     WHERE org_id = $1 AND endpoint_id = ANY($2) AND status = 'pending'`,
    [orgId, endpointIds],
  )
  return result.rowCount ?? 0
}

/**
 * Blanks the `data` of the deliveries about an erased customer (pending, failed and replayable alike): those of its
 * events, and those an automation sent about it (no event id) or whose event is already purged.
 */
export async function erasePayloads(
  q: Queryable,
  orgId: string,
  customerId: string,
  eventIds: readonly string[],
): Promise<void> {
  await q.query(
    `UPDATE webhook_deliveries
     SET payload = jsonb_set(payload::jsonb, '{data}', jsonb_build_object('id', $2::text, 'erased', true))::text
     WHERE org_id = $1
       AND (event_id = ANY($3) OR (event LIKE 'customer.%' AND payload::jsonb->'data'->>'id' = $2))`,
    [orgId, customerId, eventIds],
  )
}
