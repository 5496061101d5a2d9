/** Partner provisioning of reseller tenants, and the owner invitations it sends. */
export { createInvitationsService, type InvitationsService } from './invitations.service.ts'
export { partnerRoutes } from './partners.routes.ts'
export type { Invitation } from './partners.schemas.ts'
export { createPartnersService, type PartnersService } from './partners.service.ts'
