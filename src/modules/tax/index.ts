/** Tax rates and the per-line rate look-up orders use. */

export { taxRoutes } from './tax.routes.ts'
export { TaxRateSchema } from './tax.schemas.ts'
export { createTaxService, type TaxService } from './tax.service.ts'
