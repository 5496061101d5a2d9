/** Partner provisioning of reseller tenants, with an invitation for each tenant's owner. */
export { partnerRoutes } from './partners.routes.ts'
export type { Invitation } from './partners.schemas.ts'
export { createPartnersService, type PartnersService } from './partners.service.ts'
