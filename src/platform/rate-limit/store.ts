import { deploymentNameOf } from '../deployment-name.ts'
import type { Runtime } from '../runtime.ts'
import type { RateLimitStore } from './gcra.ts'
import { MemoryRateLimitStore } from './memory-store.ts'
import { RedisRateLimitStore } from './redis-store.ts'

/** What the shared per-process ports need of the runtime (tests may pass a part of it). */
export type PlatformParts = Pick<Runtime, 'database' | 'revocations'> & Partial<Pick<Runtime, 'redis' | 'soleInstance'>>

const stores = new WeakMap<PlatformParts, Promise<RateLimitStore>>()

/** One store per process runtime, shared by the API and the web app: Redis when instances share one. */
export function rateLimitStoreOf(runtime: PlatformParts): Promise<RateLimitStore> {
  let store = stores.get(runtime)
  if (!store) {
    store = (async () => {
      if (!runtime.redis) return new MemoryRateLimitStore()
      return new RedisRateLimitStore(runtime.redis, await deploymentNameOf(runtime.database))
    })()
    stores.set(runtime, store)
  }
  return store
}
