import type { Queryable } from '../../platform/db/database.ts'
import { type EventRow, eventColumns } from '../events/index.ts'
import type { FeedCursor } from './feed-cursor.ts'

/** The event types the kitchen display shows (docs/decisions.md "States"). */
const KDS_EVENT_TYPES = ['order.created', 'order.updated', 'order.completed', 'order.voided'] as const

/** Every org's order events after `after`, for the one poller of a process (a SECURITY DEFINER function). */
export async function feedAfter(q: Queryable, after: FeedCursor, limit: number): Promise<EventRow[]> {
  const result = await q.prepared<EventRow>(
    'kds_feed_after',
    `SELECT ${eventColumns} FROM kds_feed_after($1::xid8, $2::bigint, $3)`,
    [after.txid.toString(), after.seq.toString(), limit],
  )
  return result.rows
}

/** The newest order event already visible to every reader; undefined on an empty feed. */
export async function feedHead(q: Queryable): Promise<Pick<EventRow, 'txid' | 'seq'> | undefined> {
  const result = await q.prepared<Pick<EventRow, 'txid' | 'seq'>>(
    'kds_feed_head',
    'SELECT txid::text AS txid, seq::text AS seq FROM kds_feed_head()',
  )
  return result.rows[0]
}

/** One org's order events after `after` (a screen's replay), optionally of one location. */
export async function orgFeedAfter(
  q: Queryable,
  orgId: string,
  after: FeedCursor,
  locationId: string | undefined,
  limit: number,
): Promise<EventRow[]> {
  const result = await q.prepared<EventRow>(
    'kds_org_feed_after',
    `SELECT ${eventColumns}
     FROM events
     WHERE org_id = $1
       AND type = ANY($2::text[])
       AND (txid, seq) > ($3::xid8, $4::bigint)
       AND ($5::text IS NULL OR data->>'location_id' = $5)
       AND txid < (SELECT events_horizon())
     ORDER BY events.txid, events.seq
     LIMIT $6`,
    [orgId, KDS_EVENT_TYPES, after.txid.toString(), after.seq.toString(), locationId ?? null, limit],
  )
  return result.rows
}
