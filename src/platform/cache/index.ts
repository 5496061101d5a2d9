/** Cached catalog answers: per-org versions moved on by every catalog write, and a byte-bounded LRU of bodies. */
import type { Redis } from 'ioredis'
import { type CatalogVersions, MemoryCatalogVersions, RedisCatalogVersions } from './catalog-versions.ts'
import { ByteLru } from './lru.ts'

export { KeptUnderCatalogVersion } from './kept.ts'
export { graphqlKey } from './keys.ts'
export { bumpCatalogAfterWrite, responseCache, serveCached } from './response-cache.ts'

/** Enough for thousands of 17 kB pages; each process holds its own. */
const RESPONSE_CACHE_BYTES = 64 * 1024 * 1024

export interface CatalogCache {
  versions: CatalogVersions
  responses: ByteLru
}

/**
 * The process's catalog cache (Runtime.catalogCache), or null when answers must not be cached: with Redis the
 * versions are shared by every instance; a sole instance (the `serve` that holds the embedded data directory)
 * keeps them in memory; otherwise instances could not tell each other about a write, so nothing is cached.
 */
export function createCatalogCache(parts: {
  redis: Redis | undefined
  soleInstance: boolean
  deploymentName: string
}): CatalogCache | null {
  const responses = new ByteLru(RESPONSE_CACHE_BYTES, 1024 * 1024)
  if (parts.redis) return { versions: new RedisCatalogVersions(parts.redis, parts.deploymentName), responses }
  if (parts.soleInstance) return { versions: new MemoryCatalogVersions(), responses }
  return null
}
