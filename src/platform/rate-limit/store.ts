import type { Runtime } from '../runtime.ts'
import type { RateLimitStore } from './gcra.ts'
import { MemoryRateLimitStore } from './memory-store.ts'
import { deploymentName } from './org-limits.repo.ts'
import { RedisRateLimitStore } from './redis-store.ts'

const stores = new WeakMap<Runtime, Promise<RateLimitStore>>()

/** One store per process runtime, shared by the API and the web app: Redis when instances share one. */
export function rateLimitStoreOf(runtime: Runtime): Promise<RateLimitStore> {
  let store = stores.get(runtime)
  if (!store) {
    store = (async () => {
      if (!runtime.redis) return new MemoryRateLimitStore()
      const namespace = await runtime.database.unscoped((q) => deploymentName(q))
      return new RedisRateLimitStore(runtime.redis, namespace)
    })()
    stores.set(runtime, store)
  }
  return store
}
