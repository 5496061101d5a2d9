import type { EventRow } from '../events/index.ts'
import type { FeedCursor } from './feed-cursor.ts'

/** An order event on its way to kitchen screens. */
export interface FeedEvent {
  orgId: string
  id: string
  type: string
  /** The order as the REST API shows it. */
  data: Record<string, unknown>
  cursor: FeedCursor
}

export function toFeedEvent(row: EventRow): FeedEvent {
  return {
    orgId: row.org_id,
    id: row.id,
    type: row.type,
    data: row.data,
    cursor: { txid: BigInt(row.txid), seq: BigInt(row.seq) },
  }
}

/** The location an order belongs to, for screens that show one location. */
export function locationOf(event: FeedEvent): string | null {
  const value = event.data.location_id
  return typeof value === 'string' ? value : null
}

/** A sale a till made offline and sent later: it was made and served already, so no kitchen screen shows it. */
export function madeOffline(event: FeedEvent): boolean {
  return typeof event.data.client_sale_id === 'string'
}
