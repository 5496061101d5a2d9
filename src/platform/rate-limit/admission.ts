import DataLoader from 'dataloader'
import type { Redis } from 'ioredis'
import { type CatalogVersions, catalogVersionKey, INIT_VERSION_LUA } from '../cache/catalog-versions.ts'
import type { CatalogCache } from '../cache/index.ts'
import { type Revocations, revokedKey } from '../crypto/revocations.ts'
import { GCRA_LUA } from './gcra.lua.ts'
import type { Decision, Limit, RateLimitStore } from './gcra.ts'
import { bucketKey } from './redis-store.ts'

interface AdmissionInput {
  sessionId: string
  orgId: string
  /** null: take no token (bench/ measuring what the org rate limit costs). */
  limit: Limit | null
}

/** What an authenticated request needs to know before it runs: all of it in one round trip where Redis is used. */
export interface Admission {
  /** The session was revoked: nothing else was done (no token taken). */
  revoked: boolean
  /** The org's rate-limit verdict; null when revoked or when no limit was asked for. */
  decision: Decision | null
  /** The org's catalog version, read before any database read; null when answers are not cached. */
  catalogVersion: string | null
}

/** Revocation check, per-org rate-limit take and catalog version for one request. */
export interface Admissions {
  admit(input: AdmissionInput): Promise<Admission>
}

/**
 * Admits a batch: for each request its revocation mark, org bucket and catalog version (three keys) and its
 * bucket's interval and capacity (two arguments, interval 0 taking no token), answering one reply per request in
 * order. A bucket named twice is taken twice, in turn, as two separate calls would.
 */
const SCRIPT = `${GCRA_LUA}${INIT_VERSION_LUA}
local out = {}
for i = 1, #KEYS / 3 do
  local k, a = (i - 1) * 3, (i - 1) * 2
  if redis.call('EXISTS', KEYS[k + 1]) == 1 then
    out[i] = {1}
  else
    local interval = tonumber(ARGV[a + 1])
    local d = {1, 0, '0'}
    if interval > 0 then d = take(KEYS[k + 2], interval, tonumber(ARGV[a + 2])) end
    out[i] = {0, d[1], d[2], d[3], versionOf(KEYS[k + 3])}
  end
end
return out
`

type Reply = [number, number?, number?, string?, string?]
type AdmitCommand = {
  /** `keyCount` keys (three per request), then two arguments per request. */
  opentillAdmit(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<Reply[]>
}

/** Past this many requests in one turn of the event loop, the rest go in a second batch. */
const MAX_BATCH = 100

/**
 * The admissions asked in one turn of the event loop, answered together once the turn's I/O callbacks have run
 * (DataLoader, flushed by setImmediate); alone, a request waits for nothing more than the rest of its turn. With
 * Redis that makes one script call of many requests. Without it, batching the turn still pays: the turn's requests
 * then run their handlers one after another after its reads rather than each inside its read, which cost the
 * embedded engine about a fifth less CPU per request (docs/benchmarks.md "One turn's admissions together, without
 * Redis too").
 */
function perTurn(admitAll: DataLoader.BatchLoadFn<AdmissionInput, Admission>) {
  return new DataLoader<AdmissionInput, Admission>(admitAll, {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: (flush) => setImmediate(flush),
  })
}

/**
 * Instances sharing a Redis: one script checks the revocation mark, takes a token from the org's bucket and
 * reads the org's catalog version, so an authenticated request costs one Redis round trip instead of two or three,
 * and the requests of one turn share that call: under load one write, one script run and one read for many
 * requests. The keys are those of RedisRevocations, RedisRateLimitStore and RedisCatalogVersions.
 */
class RedisAdmissions implements Admissions {
  private readonly batches: DataLoader<AdmissionInput, Admission>

  constructor(
    redis: Redis,
    private readonly namespace: string,
    private readonly revocations: Revocations,
  ) {
    redis.defineCommand('opentillAdmit', { lua: SCRIPT })
    const command = redis as unknown as AdmitCommand
    this.batches = perTurn((inputs) => this.admitAll(command, inputs))
  }

  async admit(input: AdmissionInput): Promise<Admission> {
    // Redis's revocation marks are only trusted once restored from the database (after a restart of Redis).
    await this.revocations.restored()
    return this.batches.load(input)
  }

  private async admitAll(command: AdmitCommand, inputs: readonly AdmissionInput[]): Promise<Admission[]> {
    const keys: string[] = []
    const args: number[] = []
    for (const { sessionId, orgId, limit } of inputs) {
      const bucket = bucketKey(this.namespace, `org:${orgId}`)
      keys.push(revokedKey(this.namespace, sessionId), bucket, catalogVersionKey(this.namespace, orgId))
      const interval = limit ? 60_000 / limit.perMinute : 0
      args.push(interval, limit ? limit.burst * interval : 0)
    }
    const replies = await command.opentillAdmit(keys.length, ...keys, ...args)
    return inputs.map(({ limit }, i) => {
      const [revoked, allowed, remaining, retry, version] = replies[i]
      if (revoked === 1) return { revoked: true, decision: null, catalogVersion: null }
      return {
        revoked: false,
        decision: limit
          ? { allowed: allowed === 1, limit: limit.perMinute, remaining: remaining ?? 0, retryAfterMs: Number(retry) }
          : null,
        catalogVersion: String(version),
      }
    })
  }
}

/**
 * A single process (embedded database) or a server without Redis: each request's three ports asked in turn, a turn's
 * requests together (perTurn). A check that fails (a database read of DatabaseRevocations) fails its own request
 * only: DataLoader rejects just the loads whose answer is an Error.
 */
class LocalAdmissions implements Admissions {
  private readonly batches = perTurn((inputs) =>
    Promise.all(
      inputs.map((input) =>
        this.admitOne(input).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
      ),
    ),
  )

  constructor(
    private readonly revocations: Revocations,
    private readonly store: RateLimitStore,
    private readonly versions: CatalogVersions | null,
  ) {}

  admit(input: AdmissionInput): Promise<Admission> {
    return this.batches.load(input)
  }

  private async admitOne({ sessionId, orgId, limit }: AdmissionInput): Promise<Admission> {
    if (await this.revocations.isRevoked(sessionId)) return { revoked: true, decision: null, catalogVersion: null }
    const decision = limit ? await this.store.take(`org:${orgId}`, limit) : null
    const catalogVersion = this.versions ? await this.versions.current(orgId) : null
    return { revoked: false, decision, catalogVersion }
  }
}

/** The process's admissions (Runtime.admissions): Redis's single script when there is a Redis, the local ports otherwise. */
export function createAdmissions(parts: {
  redis: Redis | undefined
  deploymentName: string
  revocations: Revocations
  rateLimitStore: RateLimitStore
  catalogCache: CatalogCache | null
}): Admissions {
  if (parts.redis) return new RedisAdmissions(parts.redis, parts.deploymentName, parts.revocations)
  return new LocalAdmissions(parts.revocations, parts.rateLimitStore, parts.catalogCache?.versions ?? null)
}
