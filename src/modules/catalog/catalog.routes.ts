import type { FastifyPluginAsync } from 'fastify'
import { bumpCatalogAfterWrite } from '../../platform/cache/index.ts'
import { bundleRoutes } from './bundles/bundles.routes.ts'
import type { CatalogService } from './catalog.service.ts'
import { categoryRoutes } from './categories/categories.routes.ts'
import { markdownRoutes } from './markdowns/markdowns.routes.ts'
import { modifierRoutes } from './modifiers/modifiers.routes.ts'
import { priceListRoutes } from './price-lists/price-lists.routes.ts'
import { productRoutes } from './products/products.routes.ts'
import { soldOutRoutes } from './sold-out/sold-out.routes.ts'
import { variantRoutes } from './variants/variants.routes.ts'

/** Every catalog route; each resource has its own routes file. */
export const catalogRoutes: FastifyPluginAsync<{ catalog: CatalogService }> = async (app, { catalog }) => {
  // Every catalog write, of every resource, invalidates the org's cached catalog answers once it has committed.
  app.addHook('onSend', bumpCatalogAfterWrite)
  await app.register(productRoutes, { products: catalog.products })
  await app.register(categoryRoutes, { categories: catalog.categories })
  await app.register(variantRoutes, { variants: catalog.variants })
  await app.register(modifierRoutes, { modifiers: catalog.modifiers })
  await app.register(priceListRoutes, { priceLists: catalog.priceLists })
  await app.register(bundleRoutes, { bundles: catalog.bundles })
  await app.register(markdownRoutes, { markdowns: catalog.markdowns })
  await app.register(soldOutRoutes, { soldOut: catalog.soldOut })
}
