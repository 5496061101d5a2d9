/** events, the outbox (db/migrations/0001_platform.sql; txid and seq from 0060_events_commit_order.sql). */

export interface EventRow {
  id: string
  org_id: string
  type: string
  data: Record<string, unknown>
  created_at: Date
  /** Commit-order key (see db/migrations/0060): the writing transaction's id and the row's sequence, as text. */
  txid: string
  seq: string
}

export const eventColumns = 'id, org_id, type, data, created_at, txid::text AS txid, seq::text AS seq'
