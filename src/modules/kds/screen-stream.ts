import type { ServerResponse } from 'node:http'
import { compareCursors, type FeedCursor, formatCursor } from './feed-cursor.ts'
import { type FeedEvent, locationOf, madeOffline } from './feed-event.ts'
import type { OpenScreen } from './kds.service.ts'

/** A screen that stops reading is cut off past this much unsent output; it resumes with Last-Event-ID. */
const MAX_UNSENT_BYTES = 1_048_576
/** Live events held while a screen replays what it missed; a replay that falls this far behind starts over. */
const MAX_BUFFERED_EVENTS = 10_000
/** setTimeout's largest delay; a credential that lives longer is still checked at every heartbeat. */
const MAX_TIMER_MS = 2_147_483_647
/** The reconnect delay EventSource clients use after a cut. */
const RETRY_MS = 2_000

/**
 * One kitchen screen's Server-Sent Events stream. It starts buffering live events, replays what it missed,
 * then goes live; every event is written once, in commit order, by dropping anything at or before the last
 * cursor written.
 */
export class ScreenStream implements OpenScreen {
  private last: FeedCursor | undefined
  private live = false
  private buffer: FeedEvent[] = []
  private heartbeat: NodeJS.Timeout | undefined
  private expiry: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    readonly orgId: string,
    private readonly locationId: string | undefined,
    private readonly raw: ServerResponse,
    private readonly onClose: (screen: ScreenStream) => void,
  ) {}

  get isClosed(): boolean {
    return this.closed
  }

  /**
   * Sends the headers and starts the heartbeat; a client gone already closes the screen. The stream ends when its
   * credential does: at `credential.endsAtMs`, or at the first heartbeat after `stands()` says it was revoked (or
   * cannot tell: closed, not open).
   */
  open(
    headers: Record<string, string | number | string[] | undefined>,
    heartbeatMs: number,
    credential?: { endsAtMs: number; stands: () => Promise<boolean> },
  ): void {
    this.raw.on('close', () => this.close())
    this.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    this.write(`retry: ${RETRY_MS}\n\n`)
    this.heartbeat = setInterval(() => {
      this.write(': heartbeat\n\n')
      credential
        ?.stands()
        .then((stands) => stands || this.end('revoked'))
        .catch(() => this.end('unverified'))
    }, heartbeatMs)
    if (credential)
      this.expiry = setTimeout(() => this.end('expired'), Math.min(credential.endsAtMs - Date.now(), MAX_TIMER_MS))
    if (this.raw.destroyed) this.close()
  }

  /** Tells the screen why its stream ends (it reconnects with a fresh token), then ends it. */
  end(reason: 'expired' | 'revoked' | 'unverified'): void {
    this.write(`event: session_ended\ndata: ${JSON.stringify({ reason })}\n\n`)
    this.close()
  }

  /** The cursor the screen has seen everything up to: its Last-Event-ID, or the head for a fresh screen. */
  startAfter(cursor: FeedCursor): void {
    this.last = cursor
  }

  /** Replayed events, already filtered by org and location in the database. */
  replay(events: FeedEvent[]): void {
    for (const event of events) if (!madeOffline(event)) this.send(event)
  }

  goLive(): void {
    this.live = true
    const held = this.buffer
    this.buffer = []
    for (const event of held) this.send(event)
  }

  push(event: FeedEvent): void {
    if (this.closed) return
    if (this.locationId !== undefined && locationOf(event) !== this.locationId) return
    if (madeOffline(event)) return
    if (this.live) {
      this.send(event)
      return
    }
    this.buffer.push(event)
    if (this.buffer.length > MAX_BUFFERED_EVENTS) this.close()
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.heartbeat)
    clearTimeout(this.expiry)
    this.buffer = []
    if (!this.raw.writableEnded) this.raw.end()
    this.onClose(this)
  }

  private send(event: FeedEvent): void {
    if (!this.last || compareCursors(event.cursor, this.last) <= 0) return
    this.last = event.cursor
    this.write(`id: ${formatCursor(event.cursor)}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`)
  }

  private write(text: string): void {
    if (this.closed || this.raw.writableEnded) return
    if (this.raw.writableLength > MAX_UNSENT_BYTES) {
      this.close()
      return
    }
    this.raw.write(text)
  }
}
