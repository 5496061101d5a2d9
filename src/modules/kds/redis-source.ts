import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Database } from '../../platform/db/database.ts'
import { compareCursors, type FeedCursor, formatCursor, parseCursor } from './feed-cursor.ts'
import type { FeedEvent } from './feed-event.ts'
import { FEED_BATCH, type FeedSource, readFeedAfter, readFeedHead, Ticker } from './feed-source.ts'

interface WireEvent {
  orgId: string
  id: string
  type: string
  data: Record<string, unknown>
  cursor: string
}

/** One published batch: `from` is the cursor it continues, so a subscriber notices a batch it missed. */
interface WireBatch {
  from: string
  events: WireEvent[]
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`

interface RedisSourceOptions {
  pollMs: number
  /** How often each process also reads the database itself, bounding the delay a lost message can cause. */
  reconcileMs: number
}

/**
 * With Redis, one process of the cluster (the holder of a lease) polls the database and publishes each batch;
 * every process subscribes and fans out to its own screens. Pub/sub may drop messages (a reconnect), so each
 * batch names the cursor it continues: a process that sees a gap, and every process now and then, reads what
 * it missed from the database. Screens drop anything at or before their cursor, so a batch seen twice is harmless.
 */
export class RedisSource implements FeedSource {
  private readonly instance = randomUUID()
  private subscriber: Redis | undefined
  private leaderTicker: Ticker | undefined
  private reconcileTicker: Ticker | undefined
  /** What this process has delivered up to. */
  private local: FeedCursor | undefined
  /** What this process, while it leads, has published up to. */
  private published: FeedCursor | undefined
  private queue: Promise<void> = Promise.resolve()
  private deliver: (events: FeedEvent[]) => void = () => {}
  private readonly keys: { channel: string; leader: string; cursor: string }

  constructor(
    private readonly database: Database,
    private readonly redis: Redis,
    namespace: string,
    private readonly options: RedisSourceOptions,
    private readonly onError: (error: unknown) => void,
  ) {
    const prefix = `opentill:kds:${namespace}`
    this.keys = { channel: `${prefix}:events`, leader: `${prefix}:leader`, cursor: `${prefix}:cursor` }
  }

  async start(deliver: (events: FeedEvent[]) => void): Promise<FeedCursor> {
    this.deliver = deliver
    this.subscriber = this.redis.duplicate()
    this.subscriber.on('error', this.onError)
    this.subscriber.on('message', (_channel: string, message: string) => this.serially(() => this.onBatch(message)))
    await this.subscriber.subscribe(this.keys.channel)
    // Subscribed first, then the head: a batch published in between is at or after it and still arrives.
    this.local = await readFeedHead(this.database)
    const start = this.local
    this.leaderTicker = new Ticker(this.options.pollMs, () => this.lead(), this.onError)
    this.reconcileTicker = new Ticker(
      this.options.reconcileMs,
      () => this.serially(() => this.catchUp()).then(() => false),
      this.onError,
    )
    this.leaderTicker.start()
    this.reconcileTicker.start()
    return start
  }

  async stop(): Promise<void> {
    await this.leaderTicker?.stop()
    await this.reconcileTicker?.stop()
    await this.queue
    await this.redis.eval(RELEASE, 1, this.keys.leader, this.instance).catch(() => {})
    if (this.subscriber) {
      await this.subscriber.quit().catch(() => this.subscriber?.disconnect())
      this.subscriber = undefined
    }
  }

  /** Local deliveries run one at a time, so `local` only moves forward. */
  private serially(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch(this.onError)
    return this.queue
  }

  private async onBatch(message: string): Promise<void> {
    const batch = JSON.parse(message) as WireBatch
    const from = parseCursor(batch.from)
    if (!from || !this.local) return
    if (compareCursors(from, this.local) > 0) await this.catchUp()
    const fresh: FeedEvent[] = []
    for (const e of batch.events) {
      const cursor = parseCursor(e.cursor)
      if (!cursor || compareCursors(cursor, this.local) <= 0) continue
      fresh.push({ orgId: e.orgId, id: e.id, type: e.type, data: e.data, cursor })
      this.local = cursor
    }
    if (fresh.length > 0) this.deliver(fresh)
  }

  /** Reads from the database whatever this process has not delivered yet. */
  private async catchUp(): Promise<void> {
    for (;;) {
      if (!this.local) return
      const events = await readFeedAfter(this.database, this.local)
      if (events.length === 0) return
      this.local = events[events.length - 1].cursor
      this.deliver(events)
      if (events.length < FEED_BATCH) return
    }
  }

  /** Holds or renews the lease; while holding it, polls the database and publishes what it finds. */
  private async lead(): Promise<boolean> {
    const leaseMs = Math.max(3000, this.options.pollMs * 10)
    const acquired = await this.redis.set(this.keys.leader, this.instance, 'PX', leaseMs, 'NX')
    const holding =
      acquired === 'OK' || (await this.redis.eval(RENEW, 1, this.keys.leader, this.instance, String(leaseMs))) === 1
    if (!holding) {
      this.published = undefined
      return false
    }
    if (!this.published) {
      const stored = await this.redis.get(this.keys.cursor)
      this.published = (stored && parseCursor(stored)) || this.local || (await readFeedHead(this.database))
    }
    const events = await readFeedAfter(this.database, this.published)
    if (events.length === 0) return false
    const batch: WireBatch = {
      from: formatCursor(this.published),
      events: events.map((e) => ({
        orgId: e.orgId,
        id: e.id,
        type: e.type,
        data: e.data,
        cursor: formatCursor(e.cursor),
      })),
    }
    this.published = events[events.length - 1].cursor
    await this.redis.publish(this.keys.channel, JSON.stringify(batch))
    await this.redis.set(this.keys.cursor, formatCursor(this.published), 'PX', 86_400_000)
    return events.length === FEED_BATCH
  }
}
