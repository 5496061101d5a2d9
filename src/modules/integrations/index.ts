/** Installed integrations and the webhook endpoints registered under them. */
export { integrationRoutes } from './integrations.routes.ts'
export { createIntegrationsService } from './integrations.service.ts'
