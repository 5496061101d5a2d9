import { buildApp } from '../../src/app.ts'
import { openRuntime } from '../../src/platform/runtime.ts'
import type { TestApp } from './harness.ts'

/**
 * Another app instance on the same data as `first`, as a second server process behind a load balancer would be:
 * its own runtime (own pool, own Redis connection, own response cache) on the same database and Redis. Closing it
 * leaves `first` running.
 */
export async function startSecondInstance(first: TestApp): Promise<TestApp> {
  const runtime = await openRuntime(first.runtime.config, { migrate: false })
  const { api, services } = await buildApp(runtime)
  await api.ready()
  return {
    api,
    services,
    runtime,
    async close() {
      await api.close()
      await runtime.close()
    },
  }
}
