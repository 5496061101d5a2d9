import type { LocationsService } from '../locations/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import { createBundlesService } from './bundles/bundles.service.ts'
import { createCategoriesService } from './categories/categories.service.ts'
import { createMarkdownsService } from './markdowns/markdowns.service.ts'
import { createModifiersService } from './modifiers/modifiers.service.ts'
import { createPriceListsService } from './price-lists/price-lists.service.ts'
import { createPricingService } from './pricing/pricing.service.ts'
import { createProductsService } from './products/products.service.ts'
import { createSoldOutService } from './sold-out/sold-out.service.ts'
import { createCatalogSyncService } from './sync/sync.service.ts'
import { createVariantsService } from './variants/variants.service.ts'

/** The catalog's use cases, one service per resource. */
export function createCatalogService(orgs: OrgsService, locations: Pick<LocationsService, 'get'>) {
  return {
    products: createProductsService(orgs),
    categories: createCategoriesService(),
    variants: createVariantsService(orgs),
    modifiers: createModifiersService(orgs),
    priceLists: createPriceListsService(orgs),
    bundles: createBundlesService(),
    markdowns: createMarkdownsService(orgs),
    pricing: createPricingService(),
    soldOut: createSoldOutService(locations),
    sync: createCatalogSyncService(orgs),
  }
}

export type CatalogService = ReturnType<typeof createCatalogService>
