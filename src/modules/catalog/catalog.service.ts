import type { OrgsService } from '../orgs/index.ts'
import { createProductsService } from './products.service.ts'

/** The catalog's use cases, one service per resource. */
export function createCatalogService(orgs: OrgsService) {
  return {
    products: createProductsService(orgs),
  }
}

export type CatalogService = ReturnType<typeof createCatalogService>
