import type { Queryable } from '../../../platform/db/database.ts'
import { notFound } from '../../../platform/errors/app-error.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../../platform/http/pagination.ts'
import type { LocationsService } from '../../locations/index.ts'
import { productById } from '../products/products.repo.ts'
import { variantById } from '../variants/variants.repo.ts'
import * as repo from './sold-out.repo.ts'
import type { SoldOutItem, SoldOutItemParams, SoldOutListQuery } from './sold-out.schemas.ts'

export const toSoldOut = (row: repo.SoldOutRow): SoldOutItem => ({
  location_id: row.location_id,
  item_id: row.item_id,
  product_id: row.product_id,
  variant_id: row.variant_id === '' ? null : row.variant_id,
  created_at: row.created_at,
})

/**
 * "Sold out here" (86): a per-location mark on a product or a variant that sales respect, apart from stock. The
 * marks are read with the prices (pricing.repo.ts), under the catalog version every catalog write moves on.
 */
export function createSoldOutService(locations: Pick<LocationsService, 'get'>) {
  /** The product and variant an item id names: a product of the org, or a variant of one; else a 404. */
  async function itemOf(q: Queryable, ctx: RequestContext, itemId: string) {
    const product = await productById(q, ctx.orgId, itemId)
    if (product) return { productId: product.id, variantId: '' }
    const variant = await variantById(q, ctx.orgId, itemId)
    if (variant) return { productId: variant.product_id, variantId: variant.id }
    throw notFound('product or variant')
  }

  return {
    async list(ctx: RequestContext, locationId: string, query: SoldOutListQuery): Promise<Page<SoldOutItem>> {
      await locations.get(ctx, locationId)
      const rows = await ctx.db.read((q) =>
        repo.listSoldOut(q, ctx.orgId, locationId, afterIdOf(query.cursor), query.limit + 1),
      )
      return toPage(rows, query.limit, (r) => [r.item_id], toSoldOut)
    },

    /** Idempotent: marking an item sold out again answers the mark it has. */
    async mark(ctx: RequestContext, params: SoldOutItemParams): Promise<SoldOutItem> {
      await locations.get(ctx, params.location_id)
      return ctx.db.tx(async (q) => {
        const item = await itemOf(q, ctx, params.item_id)
        return toSoldOut(await repo.markSoldOut(q, ctx.orgId, params.location_id, item.productId, item.variantId))
      })
    },

    /** Idempotent: an item not marked stays so. */
    async clear(ctx: RequestContext, params: SoldOutItemParams): Promise<void> {
      await locations.get(ctx, params.location_id)
      await ctx.db.tx(async (q) => {
        const item = await itemOf(q, ctx, params.item_id)
        await repo.clearSoldOut(q, ctx.orgId, params.location_id, item.productId, item.variantId)
      })
    },
  }
}

export type SoldOutService = ReturnType<typeof createSoldOutService>
