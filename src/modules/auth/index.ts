/** Login sessions, users and roles. */

export { AuthErrors } from './auth.errors.ts'
export { authRoutes } from './auth.routes.ts'
export {
  type AuthService,
  createAuthService,
  ownerEmailOf,
} from './auth.service.ts'
export { CONSENT_SCOPE, MERCHANT_SCOPES, scopesOfRole } from './scopes.ts'
