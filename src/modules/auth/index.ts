/** Login sessions, users and roles: staff accounts, invitations, passwords. */

export { AuthErrors } from './auth.errors.ts'
export { authRoutes } from './auth.routes.ts'
export type { LoginSession } from './auth.schemas.ts'
export {
  type AuthService,
  createAuthService,
  ownerEmailOf,
} from './auth.service.ts'
export { deviceRoutes } from './devices.routes.ts'
export { TillStaffSchema } from './devices.schemas.ts'
export { type ApprovalAction, createDevicesService, type DevicesService } from './devices.service.ts'
export { createInvitationsService, type InvitationsService } from './invitations.service.ts'
export { createPasswordsService } from './passwords.service.ts'
export { APPS_SCOPE, CONSENT_SCOPE, MERCHANT_SCOPES, TILL_SCOPE } from './scopes.ts'
export { createSessionEnding } from './session-ending.ts'
export { userRoutes } from './users.routes.ts'
export { createUsersService } from './users.service.ts'
