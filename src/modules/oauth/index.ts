/** OAuth 2.0 authorization server: apps, grants, the protocol endpoints. */
export { appRoutes } from './apps.routes.ts'
export type { OAuthApp } from './apps.service.ts'
export { oauthRoutes, oauthWellKnownRoutes } from './oauth.routes.ts'
export { createOAuthService, type OAuthService } from './oauth.service.ts'
export { isValidS256Challenge } from './pkce.ts'
export { isRegistered, withParams } from './redirect-uri.ts'
export { grantedScopes, PARTNER_SCOPE, parseScope, scopeDescriptions, unknownScopes } from './scope.ts'
export type { WebSession } from './web-sessions.service.ts'
