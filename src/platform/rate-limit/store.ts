import type { Redis } from 'ioredis'
import type { RateLimitStore } from './gcra.ts'
import { MemoryRateLimitStore } from './memory-store.ts'
import { RedisRateLimitStore } from './redis-store.ts'

/** The process's store (Runtime.rateLimitStore), shared by the API and the web app: Redis when instances share one. */
export function createRateLimitStore(redis: Redis | undefined, deploymentName: string): RateLimitStore {
  return redis ? new RedisRateLimitStore(redis, deploymentName) : new MemoryRateLimitStore()
}
