/** Products, variants, categories, modifiers, price lists, bundles and markdowns. */

export type { BundleComponent } from './bundles/bundles.service.ts'
export { catalogRoutes } from './catalog.routes.ts'
export { CATALOG_SCHEMAS } from './catalog.schemas.ts'
export { type CatalogService, createCatalogService } from './catalog.service.ts'
export type { QuotedLine } from './pricing/pricing.service.ts'
