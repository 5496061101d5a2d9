import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import { KdsErrors } from './kds.errors.ts'

/** One open stream's place in its org's count; given back when the stream ends. */
export interface Seat {
  /** Keeps the seat from being counted stale (called at every heartbeat). */
  refresh(): Promise<void>
  release(): void
}

export interface StreamSeats {
  /** A seat for one more stream of `orgId`, or a 429 when the org has `max` open already. */
  take(orgId: string): Promise<Seat>
}

const refusal = (max: number) =>
  KdsErrors.STREAM_LIMIT(
    `this org already has ${max} kitchen streams open (KDS_MAX_STREAMS_PER_ORG); close one first`,
    {
      headers: { 'retry-after': '30' },
    },
  )

/** One process (the embedded database, or a server without Redis): a count per org in memory. */
export class MemorySeats implements StreamSeats {
  private readonly open = new Map<string, number>()
  constructor(private readonly max: number) {}

  async take(orgId: string): Promise<Seat> {
    const count = this.open.get(orgId) ?? 0
    if (count >= this.max) throw refusal(this.max)
    this.open.set(orgId, count + 1)
    let released = false
    return {
      refresh: async () => {},
      release: () => {
        if (released) return
        released = true
        const left = (this.open.get(orgId) ?? 1) - 1
        if (left > 0) this.open.set(orgId, left)
        else this.open.delete(orgId)
      },
    }
  }
}

// Prunes seats not refreshed within `stale` ms (an instance that died), then takes one if fewer than `max` are held.
const TAKE_LUA = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`

/** Instances sharing a Redis: a sorted set per org of the open streams, scored by their last heartbeat. */
export class RedisSeats implements StreamSeats {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly max: number,
    private readonly staleMs: number,
  ) {}

  async take(orgId: string): Promise<Seat> {
    const key = `opentill:kds-streams:${this.namespace}:${orgId}`
    const id = randomUUID()
    const taken = await this.redis.eval(TAKE_LUA, 1, key, Date.now(), this.staleMs, this.max, id)
    if (taken !== 1) throw refusal(this.max)
    return {
      refresh: async () => {
        await this.redis.zadd(key, Date.now(), id)
        await this.redis.pexpire(key, this.staleMs)
      },
      release: () => {
        this.redis.zrem(key, id).catch(() => {})
      },
    }
  }
}
