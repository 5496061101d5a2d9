import type { Queryable } from '../../platform/db/database.ts'
import { type EventRow, eventColumns } from './events.tables.ts'

interface EventFilter {
  /** Resume after this (txid, seq); absent: from the oldest retained event. */
  after?: { txid: string; seq: string }
  types?: readonly string[]
  createdFrom?: Date
  createdTo?: Date
  retentionDays: number
  limit: number
}

/**
 * One page of the org's events in commit order. Rows at or above the horizon (the oldest transaction of this
 * database still running, db/migrations/0060) are held back, so a cursor never passes an event that commits later.
 */
export async function listEvents(q: Queryable, orgId: string, f: EventFilter): Promise<EventRow[]> {
  const result = await q.prepared<EventRow>(
    'events_list',
    `SELECT ${eventColumns}
     FROM events
     WHERE org_id = $1
       AND created_at >= now() - make_interval(days => $2)
       AND ($3::xid8 IS NULL OR (txid, seq) > ($3::xid8, $4::bigint))
       AND ($5::text[] IS NULL OR type = ANY($5))
       AND ($6::timestamptz IS NULL OR created_at >= $6)
       AND ($7::timestamptz IS NULL OR created_at < $7)
       AND txid < (SELECT events_horizon())
     ORDER BY events.txid, events.seq
     LIMIT $8`,
    [
      orgId,
      f.retentionDays,
      f.after?.txid ?? null,
      f.after?.seq ?? null,
      f.types ?? null,
      f.createdFrom ?? null,
      f.createdTo ?? null,
      f.limit,
    ],
  )
  return result.rows
}

export async function eventById(
  q: Queryable,
  orgId: string,
  id: string,
  retentionDays: number,
): Promise<EventRow | undefined> {
  const result = await q.prepared<EventRow>(
    'event_by_id',
    `SELECT ${eventColumns}
     FROM events WHERE org_id = $1 AND id = $2 AND created_at >= now() - make_interval(days => $3)`,
    [orgId, id, retentionDays],
  )
  return result.rows[0]
}

/**
 * Deletes up to `batch` events of every org created more than `retentionDays` ago, walking the primary key below
 * `beforeId`; events still waiting for the webhook relay stay (a SECURITY DEFINER function, migration 0064).
 */
export async function purgeExpired(
  q: Queryable,
  beforeId: string,
  retentionDays: number,
  batch: number,
): Promise<number> {
  const result = await q.query<{ purged: number }>(
    'SELECT events_purge_expired($1, make_interval(days => $2), $3) AS purged',
    [beforeId, retentionDays, batch],
  )
  return result.rows[0].purged
}

/**
 * Blanks the data of the customer's own events (customer.created, customer.updated) to their id, for an erasure on
 * request; answers the events' ids, whose webhook payloads are blanked too.
 */
export async function eraseCustomerEvents(q: Queryable, orgId: string, customerId: string): Promise<string[]> {
  const result = await q.query<{ id: string }>(
    `UPDATE events SET data = jsonb_build_object('id', $2::text, 'erased', true)
     WHERE org_id = $1 AND type LIKE 'customer.%' AND data->>'id' = $2 RETURNING id`,
    [orgId, customerId],
  )
  return result.rows.map((r) => r.id)
}
