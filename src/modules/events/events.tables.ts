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

/**
 * The outbox's columns, txid and seq as text. A statement that orders by them must name the table's columns
 * (`ORDER BY events.txid, events.seq`): a bare `txid` is this text alias, which sorts "100" before "99".
 */
export const eventColumns = 'id, org_id, type, data, created_at, txid::text AS txid, seq::text AS seq'
