/** Partner provisioning of reseller tenants, and the owner invitations it sends. */
export {
  createInvitationsService,
  type Invitation,
  type InvitationsService,
} from './invitations.service.ts'
export { partnerRoutes } from './partners.routes.ts'
export { type CreateTenantInput, createPartnersService, type PartnersService, type Tenant } from './partners.service.ts'
