/** Login sessions, users and roles. */
export { authRoutes } from './auth.routes.ts'
export {
  type AuthService,
  createAuthService,
  type LoginSession,
  ownerEmailOf,
} from './auth.service.ts'
export { CONSENT_SCOPE, MERCHANT_SCOPES, type Scope, scopesOfRole } from './scopes.ts'
