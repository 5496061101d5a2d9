import type { Queryable } from '../../platform/db/database.ts'
import type { FeedCursor } from './feed-cursor.ts'

export interface FeedRow {
  org_id: string
  id: string
  type: string
  data: Record<string, unknown>
  created_at: Date
  txid: string
  seq: string
}

/** The event types the kitchen display shows (docs/decisions.md "States"). */
const KDS_EVENT_TYPES = ['order.created', 'order.updated', 'order.completed', 'order.voided'] as const

/** Every org's order events after `after`, for the one poller of a process (a SECURITY DEFINER function). */
export async function feedAfter(q: Queryable, after: FeedCursor, limit: number): Promise<FeedRow[]> {
  const result = await q.prepared<FeedRow>(
    'kds_feed_after',
    'SELECT org_id, id, type, data, created_at, txid::text AS txid, seq::text AS seq FROM kds_feed_after($1::xid8, $2::bigint, $3)',
    [after.txid.toString(), after.seq.toString(), limit],
  )
  return result.rows
}

/** The newest order event already visible to every reader; undefined on an empty feed. */
export async function feedHead(q: Queryable): Promise<{ txid: string; seq: string } | undefined> {
  const result = await q.prepared<{ txid: string; seq: string }>(
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
): Promise<FeedRow[]> {
  const result = await q.prepared<FeedRow>(
    'kds_org_feed_after',
    `SELECT org_id, id, type, data, created_at, txid::text AS txid, seq::text AS seq
     FROM events
     WHERE org_id = $1
       AND type = ANY($2::text[])
       AND (txid, seq) > ($3::xid8, $4::bigint)
       AND ($5::text IS NULL OR data->>'location_id' = $5)
       AND txid < (SELECT events_horizon())
     ORDER BY txid, seq
     LIMIT $6`,
    [orgId, KDS_EVENT_TYPES, after.txid.toString(), after.seq.toString(), locationId ?? null, limit],
  )
  return result.rows
}
