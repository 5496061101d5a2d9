import type { Redis } from 'ioredis'

/**
 * A per-org counter that every catalog write moves on after it commits. Cached catalog answers are filed under
 * the version read before their database read, so a write makes every older answer unreachable at once.
 */
export interface CatalogVersions {
  current(orgId: string): Promise<string>
  bump(orgId: string): Promise<void>
}

/** The Redis key of an org's catalog version; `namespace` keeps deployments sharing one Redis apart. */
export function catalogVersionKey(namespace: string, orgId: string): string {
  return `opentill:catalog-version:${namespace}:${orgId}`
}

/**
 * A missing key (a new org, or a Redis that lost its data) starts at Redis's clock in microseconds: that is
 * larger than any earlier value, which started at an earlier clock and grew by one per write, so an answer
 * cached under an old value is never served again after Redis forgets the key.
 */
export const INIT_VERSION_LUA = `
local function versionOf(key)
  local v = redis.call('GET', key)
  if v then return v end
  local t = redis.call('TIME')
  v = t[1] .. string.format('%06d', tonumber(t[2]))
  if redis.call('SET', key, v, 'NX') then return v end
  return redis.call('GET', key)
end
`

const BUMP = `${INIT_VERSION_LUA}
versionOf(KEYS[1])
return redis.call('INCR', KEYS[1])
`
const CURRENT = `${INIT_VERSION_LUA}
return versionOf(KEYS[1])
`

type VersionCommands = {
  opentillCatalogBump(key: string): Promise<number>
  opentillCatalogVersion(key: string): Promise<string>
}

/** Shared by every instance on one Redis: a write on one instance is seen by the next read on any other. */
export class RedisCatalogVersions implements CatalogVersions {
  private readonly commands: VersionCommands

  constructor(
    redis: Redis,
    private readonly namespace: string,
  ) {
    redis.defineCommand('opentillCatalogBump', { numberOfKeys: 1, lua: BUMP })
    redis.defineCommand('opentillCatalogVersion', { numberOfKeys: 1, lua: CURRENT })
    this.commands = redis as unknown as VersionCommands
  }

  async current(orgId: string): Promise<string> {
    return String(await this.commands.opentillCatalogVersion(catalogVersionKey(this.namespace, orgId)))
  }

  async bump(orgId: string): Promise<void> {
    await this.commands.opentillCatalogBump(catalogVersionKey(this.namespace, orgId))
  }
}

/** The embedded database serves one process, so the versions live in its memory. */
export class MemoryCatalogVersions implements CatalogVersions {
  private readonly versions = new Map<string, number>()

  async current(orgId: string): Promise<string> {
    return String(this.versions.get(orgId) ?? 0)
  }

  async bump(orgId: string): Promise<void> {
    this.versions.set(orgId, (this.versions.get(orgId) ?? 0) + 1)
  }
}
