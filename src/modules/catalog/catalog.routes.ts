import type { FastifyPluginAsync } from 'fastify'
import type { CatalogService } from './catalog.service.ts'
import { productRoutes } from './products.routes.ts'

/** Every catalog route; each resource has its own routes file. */
export const catalogRoutes: FastifyPluginAsync<{ catalog: CatalogService }> = async (app, { catalog }) => {
  await app.register(productRoutes, { products: catalog.products })
}
