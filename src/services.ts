import type { Runtime } from './platform/runtime.ts'
import { createAuthService } from './modules/auth/index.ts'
import { createOrgsService } from './modules/orgs/index.ts'
import { createCatalogService } from './modules/catalog/index.ts'

/** Each domain's service, wired once per process: domains call each other only through these. */
export function createServices(runtime: Runtime) {
  const auth = createAuthService(runtime)
  const orgs = createOrgsService(runtime, auth)
  const catalog = createCatalogService(orgs)
  return { auth, orgs, catalog }
}

export type Services = ReturnType<typeof createServices>
