/** Partner provisioning of reseller tenants, with an invitation for each tenant's owner. */
export { partnerRoutes } from './partners.routes.ts'
export { createPartnersService } from './partners.service.ts'
