import type { Runtime } from '../runtime.ts'
import type { RateLimitStore } from './gcra.ts'
import { MemoryRateLimitStore } from './memory-store.ts'
import { deploymentName } from './org-limits.repo.ts'
import { RedisRateLimitStore } from './redis-store.ts'

/** What the shared per-process ports need of the runtime (tests may pass a part of it). */
export type PlatformParts = Pick<Runtime, 'database' | 'revocations'> & Partial<Pick<Runtime, 'redis' | 'embedded'>>

const stores = new WeakMap<PlatformParts, Promise<RateLimitStore>>()
const namespaces = new WeakMap<PlatformParts, Promise<string>>()

/** This deployment's name on a shared Redis (see deploymentName), read once per process runtime. */
export function deploymentNamespaceOf(runtime: PlatformParts): Promise<string> {
  let namespace = namespaces.get(runtime)
  if (!namespace) {
    namespace = runtime.database.unscoped((q) => deploymentName(q))
    namespaces.set(runtime, namespace)
  }
  return namespace
}

/** One store per process runtime, shared by the API and the web app: Redis when instances share one. */
export function rateLimitStoreOf(runtime: PlatformParts): Promise<RateLimitStore> {
  let store = stores.get(runtime)
  if (!store) {
    store = (async () => {
      if (!runtime.redis) return new MemoryRateLimitStore()
      return new RedisRateLimitStore(runtime.redis, await deploymentNamespaceOf(runtime))
    })()
    stores.set(runtime, store)
  }
  return store
}
