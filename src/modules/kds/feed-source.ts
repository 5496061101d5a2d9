import type { Database } from '../../platform/db/database.ts'
import { FEED_START, type FeedCursor } from './feed-cursor.ts'
import { type FeedEvent, toFeedEvent } from './feed-event.ts'
import * as repo from './kds.repo.ts'

/** Where a process's one feed comes from: a database poll, or Redis pub/sub fed by one poller per cluster. */
export interface FeedSource {
  /** Starts delivering, in commit order, every order event committed after the cursor it resolves to. */
  start(deliver: (events: FeedEvent[]) => void): Promise<FeedCursor>
  stop(): Promise<void>
}

/** Rows per poll: a burst larger than this is read in several polls without waiting between them. */
export const FEED_BATCH = 500

export async function readFeedHead(database: Database): Promise<FeedCursor> {
  const head = await database.unscoped((q) => repo.feedHead(q))
  return head ? { txid: BigInt(head.txid), seq: BigInt(head.seq) } : FEED_START
}

export async function readFeedAfter(database: Database, after: FeedCursor): Promise<FeedEvent[]> {
  const rows = await database.unscoped((q) => repo.feedAfter(q, after, FEED_BATCH))
  return rows.map(toFeedEvent)
}

/**
 * Runs `task` every `intervalMs` (sooner when it asks to), never two at once; `stop` waits for the one in
 * flight, so the pool is never closed under a query.
 */
export class Ticker {
  private timer: NodeJS.Timeout | undefined
  private inflight: Promise<void> = Promise.resolve()
  private running = false

  constructor(
    private readonly intervalMs: number,
    private readonly task: () => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.running = true
    this.schedule(this.intervalMs)
  }

  private schedule(delay: number): void {
    if (!this.running) return
    this.timer = setTimeout(() => {
      this.inflight = this.task().then(
        (again) => this.schedule(again ? 0 : this.intervalMs),
        (error) => {
          this.onError(error)
          this.schedule(this.intervalMs)
        },
      )
    }, delay)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    this.running = false
    clearTimeout(this.timer)
    await this.inflight
  }
}

/** Without Redis: this process polls the database itself, one query per interval whatever the screen count. */
export class PollingSource implements FeedSource {
  private ticker: Ticker | undefined

  constructor(
    private readonly database: Database,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(deliver: (events: FeedEvent[]) => void): Promise<FeedCursor> {
    let cursor = await readFeedHead(this.database)
    const start = cursor
    this.ticker = new Ticker(
      this.pollMs,
      async () => {
        const events = await readFeedAfter(this.database, cursor)
        if (events.length === 0) return false
        cursor = events[events.length - 1].cursor
        deliver(events)
        return events.length === FEED_BATCH
      },
      this.onError,
    )
    this.ticker.start()
    return start
  }

  async stop(): Promise<void> {
    await this.ticker?.stop()
  }
}
