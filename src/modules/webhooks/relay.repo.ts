import type { Queryable } from '../../platform/db/database.ts'
import type { ClaimedAttempt, OutboxEventRow } from './webhooks.tables.ts'

/** Cross-org claims of the delivery workers, through the SECURITY DEFINER functions of migration 0050. */

export async function claimRelay(q: Queryable, limit: number): Promise<{ event_id: string; org_id: string }[]> {
  const result = await q.query<{ event_id: string; org_id: string }>(
    'SELECT event_id, org_id FROM webhook_claim_relay($1)',
    [limit],
  )
  return result.rows
}

/** Re-scopes the open transaction to another org (row-level security follows `app.org_id`). */
export async function scopeTo(q: Queryable, orgId: string): Promise<void> {
  await q.query(`SELECT set_config('app.org_id', $1, true)`, [orgId])
}

export async function eventsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<OutboxEventRow[]> {
  const result = await q.query<OutboxEventRow>(
    'SELECT id, type, data, created_at FROM events WHERE org_id = $1 AND id = ANY($2) ORDER BY id',
    [orgId, ids],
  )
  return result.rows
}

export async function activeSubscriptions(q: Queryable, orgId: string): Promise<{ id: string; events: string[] }[]> {
  const result = await q.query<{ id: string; events: string[] }>(
    `SELECT id, events FROM webhook_endpoints WHERE org_id = $1 AND status = 'active' ORDER BY id`,
    [orgId],
  )
  return result.rows
}

export async function claimAttempts(q: Queryable, limit: number, leaseMs: number): Promise<ClaimedAttempt[]> {
  const result = await q.query<ClaimedAttempt>('SELECT * FROM webhook_claim_attempts($1, $2)', [limit, leaseMs])
  return result.rows
}

export async function purgeExpired(q: Queryable): Promise<number> {
  const result = await q.query<{ purged: number }>('SELECT webhook_purge_expired() AS purged')
  return result.rows[0].purged
}
