import type { Runtime } from '../../platform/runtime.ts'
import type { AuthService } from '../auth/index.ts'
import { createAppsService } from './apps.service.ts'
import { createGrantsService } from './grants.service.ts'
import { createWebSessionsService } from './web-sessions.service.ts'

/** The OAuth module's service: app registration and grants (consents, partner connections). */
export function createOAuthService(runtime: Runtime, auth: AuthService) {
  const apps = createAppsService(runtime)
  const grants = createGrantsService(runtime, apps)
  const webSessions = createWebSessionsService(runtime, auth)
  return {
    apps,
    grants,
    webSessions,
    /** Partner provisioning: connects a partner app to a tenant org inside the caller's transaction. */
    connectApp: grants.connectApp,
    /** The tenant orgs a partner app of the caller's org is connected to. */
    listConnectedOrgs: grants.listConnectedOrgs,
  }
}

export type OAuthService = ReturnType<typeof createOAuthService>
