/** Merchants: each org owns all of its data. */
export { PLANS, type Plan } from './orgs.plans.ts'
export { createOrgsService, type OrgsService } from './orgs.service.ts'
export { settingsRoutes } from './settings.routes.ts'
export { SettingsSchema } from './settings.schemas.ts'
export { createSettingsService, type SettingsService } from './settings.service.ts'
