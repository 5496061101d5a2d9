/** Partner provisioning of reseller tenants, and the owner invitations it sends. */
export {
  createInvitationsService,
  type Invitation,
  type InvitationsService,
} from './invitations.service.ts'
export { partnerRoutes } from './partners.routes.ts'
export { createPartnersService, type PartnersService } from './partners.service.ts'
