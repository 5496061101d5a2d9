import type { Queryable } from '../../platform/db/database.ts'
import type { WebhookChanges } from './webhooks.schemas.ts'
import {
  type EndpointRow,
  type EndpointWithSecrets,
  endpointColumns,
  type StoredSecretsRow,
} from './webhooks.tables.ts'

export async function insertEndpoint(
  q: Queryable,
  orgId: string,
  e: { id: string; integrationId: string; url: string; events: string[]; description: string; secret: string },
): Promise<EndpointRow> {
  const result = await q.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, org_id, integration_id, url, events, description, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${endpointColumns}`,
    [e.id, orgId, e.integrationId, e.url, e.events, e.description, e.secret],
  )
  return result.rows[0]
}

interface EndpointFilter {
  integrationId?: string
  status?: string
  afterId?: string
  limit: number
}

export async function listEndpoints(q: Queryable, orgId: string, f: EndpointFilter): Promise<EndpointRow[]> {
  const result = await q.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM webhook_endpoints
     WHERE org_id = $1 AND status <> 'deleted' AND ($2::text IS NULL OR integration_id = $2)
       AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR id > $4)
     ORDER BY id LIMIT $5`,
    [orgId, f.integrationId ?? null, f.status ?? null, f.afterId ?? null, f.limit],
  )
  return result.rows
}

/** One endpoint; with `integrationId`, only when it belongs to that integration. */
export async function endpointById(
  q: Queryable,
  orgId: string,
  id: string,
  integrationId?: string,
): Promise<EndpointWithSecrets | undefined> {
  const result = await q.query<EndpointWithSecrets>(
    `SELECT ${endpointColumns}, secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret
     FROM webhook_endpoints
     WHERE org_id = $1 AND id = $2 AND status <> 'deleted' AND ($3::text IS NULL OR integration_id = $3)`,
    [orgId, id, integrationId ?? null],
  )
  return result.rows[0]
}

/** The current secret becomes the previous one, valid `graceHours` more; the new one signs from now on. */
export async function rotateSecret(
  q: Queryable,
  orgId: string,
  id: string,
  integrationId: string,
  secret: string,
  graceHours: number,
): Promise<EndpointRow | undefined> {
  const result = await q.query<EndpointRow>(
    `UPDATE webhook_endpoints
     SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(hours => $5),
         secret = $4, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND integration_id = $3 AND status <> 'deleted' RETURNING ${endpointColumns}`,
    [orgId, id, integrationId, secret, graceHours],
  )
  return result.rows[0]
}

/** A suspended endpoint becomes active again; undefined when it was not suspended (or is not the org's). */
export async function enableEndpoint(q: Queryable, orgId: string, id: string): Promise<EndpointRow | undefined> {
  const result = await q.query<EndpointRow>(
    `UPDATE webhook_endpoints
     SET status = 'active', consecutive_failures = 0, suspended_at = NULL, suspension_reason = NULL,
         suspension_notified_at = NULL, suspension_notified_by = NULL, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND status = 'suspended' RETURNING ${endpointColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}

/** A delivered event: the endpoint answers again. */
export async function resetFailures(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query(
    `UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL
     WHERE org_id = $1 AND id = $2 AND (consecutive_failures <> 0 OR failing_since IS NOT NULL)`,
    [orgId, id],
  )
}

/** A failed attempt: the first since the last delivered event marks when the receiver stopped answering. */
export async function markFailing(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query(
    'UPDATE webhook_endpoints SET failing_since = now() WHERE org_id = $1 AND id = $2 AND failing_since IS NULL',
    [orgId, id],
  )
}

/**
 * Counts one more failed event and suspends the endpoint when the count reaches `limit`. Returns the endpoint
 * when this call suspended it (so exactly one caller notifies the owner), undefined otherwise.
 */
export async function countFailure(
  q: Queryable,
  orgId: string,
  id: string,
  limit: number,
  reason: string,
): Promise<EndpointRow | undefined> {
  const suspends = `status = 'active' AND consecutive_failures + 1 >= $3`
  const result = await q.query<EndpointRow & { just_suspended: boolean }>(
    `UPDATE webhook_endpoints
     SET consecutive_failures = consecutive_failures + 1,
         status = CASE WHEN ${suspends} THEN 'suspended' ELSE status END,
         suspended_at = CASE WHEN ${suspends} THEN now() ELSE suspended_at END,
         suspension_reason = CASE WHEN ${suspends} THEN $4 ELSE suspension_reason END,
         version = CASE WHEN ${suspends} THEN version + 1 ELSE version END
     WHERE org_id = $1 AND id = $2
     RETURNING ${endpointColumns}, (suspended_at = now()) AS just_suspended`,
    [orgId, id, limit, reason],
  )
  const row = result.rows[0]
  if (!row?.just_suspended) return undefined
  const { just_suspended: _, ...endpoint } = row
  return endpoint
}

/**
 * Changes an endpoint's url, events or description. `expectedVersion` (when given) must match; the caller
 * tells "not found" from "stale" by reading the row again when nothing matched.
 */
export async function updateEndpoint(
  q: Queryable,
  orgId: string,
  id: string,
  integrationId: string,
  changes: WebhookChanges,
  expectedVersion: number | undefined,
): Promise<EndpointRow | undefined> {
  const result = await q.query<EndpointRow>(
    `UPDATE webhook_endpoints
     SET url = coalesce($4, url), events = coalesce($5::text[], events), description = coalesce($6, description),
         version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND integration_id = $3 AND status <> 'deleted'
       AND ($7::int IS NULL OR version = $7)
     RETURNING ${endpointColumns}`,
    [
      orgId,
      id,
      integrationId,
      changes.url ?? null,
      changes.events ?? null,
      changes.description ?? null,
      expectedVersion ?? null,
    ],
  )
  return result.rows[0]
}

/** Marks endpoints deleted (one, or every one of an integration); returns the ids it deleted. */
export async function deleteEndpoints(
  q: Queryable,
  orgId: string,
  f: { integrationId: string; id?: string },
): Promise<string[]> {
  const result = await q.query<{ id: string }>(
    `UPDATE webhook_endpoints
     SET status = 'deleted', deleted_at = now(), version = version + 1, updated_at = now()
     WHERE org_id = $1 AND integration_id = $2 AND ($3::text IS NULL OR id = $3) AND status <> 'deleted'
     RETURNING id`,
    [orgId, f.integrationId, f.id ?? null],
  )
  return result.rows.map((r) => r.id)
}

/** Records how the owner was told about a suspension, unless the endpoint was re-enabled meanwhile. */
export async function markSuspensionNotified(
  q: Queryable,
  orgId: string,
  id: string,
  suspendedVersion: number,
  by: string,
): Promise<void> {
  // The version the suspension produced: a re-enable (or another suspension) since then bumped it.
  await q.query(
    `UPDATE webhook_endpoints SET suspension_notified_at = now(), suspension_notified_by = $4
     WHERE org_id = $1 AND id = $2 AND status = 'suspended' AND version = $3`,
    [orgId, id, suspendedVersion, by],
  )
}

/** The table of sealed webhook secrets, which binds each to its row (`rowBinding`). */
export const WEBHOOK_SECRETS_TABLE = 'webhook_endpoints'

/** Every endpoint's stored secrets, across orgs (the owner's connection: `opentill rotate-secrets-key`). */
export async function allStoredSecrets(q: Queryable): Promise<StoredSecretsRow[]> {
  const result = await q.query<StoredSecretsRow>(
    'SELECT org_id, id, secret, previous_secret FROM webhook_endpoints FOR UPDATE',
  )
  return result.rows
}

export async function setStoredSecrets(q: Queryable, e: StoredSecretsRow): Promise<void> {
  await q.query('UPDATE webhook_endpoints SET secret = $3, previous_secret = $4 WHERE org_id = $1 AND id = $2', [
    e.org_id,
    e.id,
    e.secret,
    e.previous_secret,
  ])
}
