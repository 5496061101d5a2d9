import type { Redis } from 'ioredis'
import type { Database } from '../db/database.ts'

/**
 * Sessions and grants whose access tokens must stop working at once, on every instance. The database row is
 * the record; the check each request makes goes to Redis when instances share one, to process memory when
 * the embedded database makes this the only process, and to the database otherwise.
 */
/** The Redis key that marks a session revoked (also read by the rate limiter's one-round-trip admission). */
export function revokedKey(namespace: string, sessionId: string): string {
  return `opentill:revoked:${namespace}:${sessionId}`
}

/** How often the Redis marks are written again from the database, in case Redis evicted or lost some. */
const REVOCATIONS_RESEED_MS = 60_000
const RESTORED = Promise.resolve()

export interface Revocations {
  /** Settles when the check can be trusted (Redis: once the marks are restored after a connect); rejects if not. */
  restored(): Promise<void>
  isRevoked(sessionId: string): Promise<boolean>
  /** Revokes until `untilMs`, after which every token of the session has expired anyway. */
  revoke(sessionId: string, untilMs: number): Promise<void>
}

async function record(db: Database, sessionId: string, untilMs: number): Promise<void> {
  await db.statement(
    `WITH pruned AS (DELETE FROM revoked_sessions WHERE expires_at < now())
     INSERT INTO revoked_sessions (session_id, expires_at) VALUES ($1, to_timestamp($2 / 1000.0))
     ON CONFLICT (session_id) DO UPDATE SET expires_at = GREATEST(revoked_sessions.expires_at, EXCLUDED.expires_at)`,
    [sessionId, untilMs],
  )
}

async function unexpired(db: Database): Promise<{ session_id: string; until_ms: string }[]> {
  const result = await db.statement<{ session_id: string; until_ms: string }>(
    `SELECT session_id, (extract(epoch FROM expires_at) * 1000)::bigint AS until_ms
     FROM revoked_sessions WHERE expires_at > now()`,
  )
  return result.rows
}

export class MemoryRevocations implements Revocations {
  private readonly revoked = new Map<string, number>()
  private constructor(private readonly db: Database) {}

  static async load(db: Database): Promise<MemoryRevocations> {
    const list = new MemoryRevocations(db)
    for (const row of await unexpired(db)) list.revoked.set(row.session_id, Number(row.until_ms))
    return list
  }

  async restored(): Promise<void> {}

  async isRevoked(sessionId: string): Promise<boolean> {
    const until = this.revoked.get(sessionId)
    if (until === undefined) return false
    if (until > Date.now()) return true
    this.revoked.delete(sessionId)
    return false
  }

  async revoke(sessionId: string, untilMs: number): Promise<void> {
    await record(this.db, sessionId, untilMs)
    this.revoked.set(sessionId, Math.max(untilMs, this.revoked.get(sessionId) ?? 0))
  }
}

/**
 * Redis holds only marks (it may restart empty or evict them): they are written again from the database at start,
 * after every reconnect and every REVOCATIONS_RESEED_MS. Until a reconnect's restore is done, checks wait for it,
 * and fail (closed) if it fails.
 */
export class RedisRevocations implements Revocations {
  private restoring: Promise<void>
  /** The last restore after a connect finished: checks need not wait (the hot path). */
  private trusted = false
  private readonly reseed: NodeJS.Timeout

  private constructor(
    private readonly db: Database,
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.restoring = this.restoreAfterConnect()
    // ioredis emits 'ready' on each (re)connect; the first one is covered by the restore above.
    let connects = redis.status === 'ready' ? 1 : 0
    redis.on('ready', () => {
      if (connects++ > 0) this.restoring = this.restoreAfterConnect()
    })
    this.reseed = setInterval(() => {
      this.restore().catch(() => {})
    }, REVOCATIONS_RESEED_MS).unref()
  }

  static async load(db: Database, redis: Redis, namespace: string): Promise<RedisRevocations> {
    const list = new RedisRevocations(db, redis, namespace)
    await list.restoring
    return list
  }

  restored(): Promise<void> {
    if (this.trusted) return RESTORED
    // A failed restore is tried again by the next check rather than failing every check until the next reseed.
    return this.restoring.catch(() => {
      this.restoring = this.restoreAfterConnect()
      return this.restoring
    })
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    await this.restored()
    return (await this.redis.exists(revokedKey(this.namespace, sessionId))) === 1
  }

  async revoke(sessionId: string, untilMs: number): Promise<void> {
    await record(this.db, sessionId, untilMs)
    await this.remember(sessionId, untilMs)
  }

  close(): void {
    clearInterval(this.reseed)
  }

  /** Checks wait until the marks a (re)started Redis may have lost are written again. */
  private restoreAfterConnect(): Promise<void> {
    this.trusted = false
    const restoring: Promise<void> = this.restore().then(() => {
      if (this.restoring === restoring) this.trusted = true
    })
    return restoring
  }

  private async restore(): Promise<void> {
    const rows = await unexpired(this.db)
    if (rows.length === 0) return
    const batch = this.redis.multi()
    for (const row of rows) batch.set(revokedKey(this.namespace, row.session_id), '1', 'PXAT', Number(row.until_ms))
    await batch.exec()
  }

  private async remember(sessionId: string, untilMs: number): Promise<void> {
    if (untilMs > Date.now()) await this.redis.set(revokedKey(this.namespace, sessionId), '1', 'PXAT', untilMs)
  }
}

export class DatabaseRevocations implements Revocations {
  constructor(private readonly db: Database) {}

  async restored(): Promise<void> {}

  async isRevoked(sessionId: string): Promise<boolean> {
    const result = await this.db.statement(
      'SELECT 1 FROM revoked_sessions WHERE session_id = $1 AND expires_at > now()',
      [sessionId],
      'revocation_check',
    )
    return (result.rowCount ?? 0) > 0
  }

  revoke(sessionId: string, untilMs: number): Promise<void> {
    return record(this.db, sessionId, untilMs)
  }
}
