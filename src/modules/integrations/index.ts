/** Installed integrations and the webhook endpoints registered under them. */
export { integrationRoutes } from './integrations.routes.ts'
export { createIntegrationsService, type Integration, type IntegrationsService } from './integrations.service.ts'
