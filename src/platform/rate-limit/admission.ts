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

const SCRIPT = `${GCRA_LUA}${INIT_VERSION_LUA}
if redis.call('EXISTS', KEYS[1]) == 1 then return {1} end
local d = take(KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]))
return {0, d[1], d[2], d[3], versionOf(KEYS[3])}
`

const SCRIPT_WITHOUT_LIMIT = `${INIT_VERSION_LUA}
if redis.call('EXISTS', KEYS[1]) == 1 then return {1} end
return {0, 1, 0, 0, versionOf(KEYS[2])}
`

type AdmitCommand = {
  opentillAdmit(
    revoked: string,
    bucket: string,
    version: string,
    interval: number,
    capacity: number,
  ): Promise<[number, number?, number?, string?, string?]>
  opentillAdmitWithoutLimit(revoked: string, version: string): Promise<[number, number?, number?, string?, string?]>
}

/**
 * Instances sharing a Redis: one script checks the revocation mark, takes a token from the org's bucket and
 * reads the org's catalog version, so an authenticated request costs one Redis round trip instead of two or three.
 * The keys are those of RedisRevocations, RedisRateLimitStore and RedisCatalogVersions.
 */
class RedisAdmissions implements Admissions {
  private readonly command: AdmitCommand

  constructor(
    redis: Redis,
    private readonly namespace: string,
    private readonly revocations: Revocations,
  ) {
    redis.defineCommand('opentillAdmit', { numberOfKeys: 3, lua: SCRIPT })
    redis.defineCommand('opentillAdmitWithoutLimit', { numberOfKeys: 2, lua: SCRIPT_WITHOUT_LIMIT })
    this.command = redis as unknown as AdmitCommand
  }

  async admit({ sessionId, orgId, limit }: AdmissionInput): Promise<Admission> {
    // Redis's revocation marks are only trusted once restored from the database (after a restart of Redis).
    await this.revocations.restored()
    if (!limit) {
      const [revoked, , , , version] = await this.command.opentillAdmitWithoutLimit(
        revokedKey(this.namespace, sessionId),
        catalogVersionKey(this.namespace, orgId),
      )
      return revoked === 1
        ? { revoked: true, decision: null, catalogVersion: null }
        : { revoked: false, decision: null, catalogVersion: String(version) }
    }
    const interval = 60_000 / limit.perMinute
    const [revoked, allowed, remaining, retry, version] = await this.command.opentillAdmit(
      revokedKey(this.namespace, sessionId),
      bucketKey(this.namespace, `org:${orgId}`),
      catalogVersionKey(this.namespace, orgId),
      interval,
      limit.burst * interval,
    )
    if (revoked === 1) return { revoked: true, decision: null, catalogVersion: null }
    return {
      revoked: false,
      decision: {
        allowed: allowed === 1,
        limit: limit.perMinute,
        remaining: remaining ?? 0,
        retryAfterMs: Number(retry),
      },
      catalogVersion: String(version),
    }
  }
}

/** A single process (embedded database) or a server without Redis: the three ports asked in turn. */
class LocalAdmissions implements Admissions {
  constructor(
    private readonly revocations: Revocations,
    private readonly store: RateLimitStore,
    private readonly versions: CatalogVersions | null,
  ) {}

  async admit({ sessionId, orgId, limit }: AdmissionInput): Promise<Admission> {
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
