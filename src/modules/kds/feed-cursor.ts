/**
 * A position in the kitchen feed: the writing transaction's id and the event's sequence (db/migrations/0060).
 * Both are 64-bit integers, compared as bigint. On the wire (`id:` and `Last-Event-ID`) it is `<txid>-<seq>`.
 */
export interface FeedCursor {
  readonly txid: bigint
  readonly seq: bigint
}

export const FEED_START: FeedCursor = Object.freeze({ txid: 0n, seq: 0n })

export function compareCursors(a: FeedCursor, b: FeedCursor): number {
  if (a.txid !== b.txid) return a.txid < b.txid ? -1 : 1
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1
  return 0
}

export function formatCursor(c: FeedCursor): string {
  return `${c.txid}-${c.seq}`
}

const WIRE = /^(\d{1,20})-(\d{1,20})$/

/** Parses a `Last-Event-ID`; undefined when it is not one of ours. */
export function parseCursor(text: string): FeedCursor | undefined {
  const match = WIRE.exec(text.trim())
  return match ? { txid: BigInt(match[1]), seq: BigInt(match[2]) } : undefined
}
