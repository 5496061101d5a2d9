import { buildApp } from '../../src/app.ts'
import { openRuntime } from '../../src/platform/runtime.ts'
import type { TestApp } from './harness.ts'

/**
 * Another app instance on the same data as `first`, as a second server process behind a load balancer would be.
 * On a PostgreSQL server it has its own runtime (own pool, own Redis connection, own response cache) on the same
 * database and Redis. The embedded database belongs to one process, so there the second instance is a second app
 * on the same runtime, which is what another instance of that process can be. Closing it leaves `first` running.
 */
export async function startSecondInstance(first: TestApp): Promise<TestApp & { sharesRuntime: boolean }> {
  if (first.runtime.embedded) {
    const { api, services } = await buildApp(first.runtime)
    await api.ready()
    return { api, services, runtime: first.runtime, sharesRuntime: true, close: () => api.close() }
  }
  const runtime = await openRuntime(first.runtime.config, { migrate: false })
  const { api, services } = await buildApp(runtime)
  await api.ready()
  return {
    api,
    services,
    runtime,
    sharesRuntime: false,
    async close() {
      await api.close()
      await runtime.close()
    },
  }
}
