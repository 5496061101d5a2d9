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
  /** A seat for one more stream of `scope` (an org, a credential), or null when `max` are open already. */
  take(scope: string, max: number): Promise<Seat | null>
}

/** One process (the embedded database, or a server without Redis): a count per scope in memory. */
export class MemorySeats implements StreamSeats {
  private readonly open = new Map<string, number>()

  async take(scope: string, max: number): Promise<Seat | null> {
    const count = this.open.get(scope) ?? 0
    if (count >= max) return null
    this.open.set(scope, count + 1)
    let released = false
    return {
      refresh: async () => {},
      release: () => {
        if (released) return
        released = true
        const left = (this.open.get(scope) ?? 1) - 1
        if (left > 0) this.open.set(scope, left)
        else this.open.delete(scope)
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

/** Instances sharing a Redis: a sorted set per scope of the open streams, scored by their last heartbeat. */
export class RedisSeats implements StreamSeats {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly staleMs: number,
  ) {}

  async take(scope: string, max: number): Promise<Seat | null> {
    const key = `opentill:kds-streams:${this.namespace}:${scope}`
    const id = randomUUID()
    const taken = await this.redis.eval(TAKE_LUA, 1, key, Date.now(), this.staleMs, max, id)
    if (taken !== 1) return null
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

const full = (what: string, max: number, variable: string) =>
  `${what} already has ${max} kitchen streams open (${variable}); close one first`

/**
 * A seat in both the org's count and the credential's: a credential (a session, an OAuth grant) may hold
 * KDS_MAX_STREAMS_PER_CREDENTIAL streams, fewer than the org's KDS_MAX_STREAMS_PER_ORG, so one token (a leaked
 * one, a screen reopening in a loop) cannot take every seat and lock the org's kitchen out.
 */
export async function takeStreamSeat(
  seats: StreamSeats,
  orgId: string,
  credentialId: string,
  limits: { perOrg: number; perCredential: number },
): Promise<Seat> {
  const retry = { headers: { 'retry-after': '30' } }
  const credential = await seats.take(`credential:${credentialId}`, limits.perCredential)
  if (!credential)
    throw KdsErrors.CREDENTIAL_STREAM_LIMIT(
      full('this credential', limits.perCredential, 'KDS_MAX_STREAMS_PER_CREDENTIAL'),
      retry,
    )
  let org: Seat | null
  try {
    org = await seats.take(orgId, limits.perOrg)
  } catch (error) {
    credential.release()
    throw error
  }
  if (!org) {
    credential.release()
    throw KdsErrors.STREAM_LIMIT(full('this org', limits.perOrg, 'KDS_MAX_STREAMS_PER_ORG'), retry)
  }
  const both = org
  return {
    refresh: async () => {
      await Promise.all([credential.refresh(), both.refresh()])
    },
    release: () => {
      credential.release()
      both.release()
    },
  }
}
