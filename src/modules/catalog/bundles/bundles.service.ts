import { newId } from '../../../platform/crypto/ids.ts'
import type { Queryable } from '../../../platform/db/database.ts'
import { isUniqueViolation } from '../../../platform/db/errors.ts'
import { invalid, notFound } from '../../../platform/errors/app-error.ts'
import { staleVersion } from '../../../platform/http/concurrency.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page } from '../../../platform/http/pagination.ts'
import * as catalogRepo from '../catalog.repo.ts'
import { pageWithChildren } from '../child-rows.ts'
import { removeVersioned } from '../versioned.ts'
import * as repo from './bundles.repo.ts'
import type { Bundle, BundleInput, BundleListQuery, ComponentInput, CreateBundleBody } from './bundles.schemas.ts'
import type { BundleRow, ComponentRow } from './bundles.tables.ts'

/** A component as other domains see it (inventory draws these down when a bundle sells). */
export interface BundleComponent {
  productId: string
  variantId: string | null
  quantity: number
}

export function toBundle(row: BundleRow, components: ComponentRow[]): Bundle {
  return {
    id: row.id,
    product_id: row.product_id,
    components: components
      .filter((c) => c.bundle_id === row.id)
      .map((c) => ({ product_id: c.product_id, variant_id: c.variant_id, quantity: c.quantity })),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * A bundle may not contain itself, nor another bundle: components are always plain products, so no chain of
 * bundles can loop back and stock is drawn down from real items.
 */
async function checkComponents(
  ctx: RequestContext,
  q: Queryable,
  bundleProductId: string,
  components: readonly ComponentInput[],
): Promise<repo.ComponentWrite[]> {
  const productIds = [...new Set(components.map((c) => c.product_id))]
  const variantIds = [...new Set(components.flatMap((c) => (c.variant_id ? [c.variant_id] : [])))]
  const products = await catalogRepo.productFlags(q, ctx.orgId, productIds)
  const variants = variantIds.length ? await catalogRepo.variantOwners(q, ctx.orgId, variantIds) : new Map()
  const bundles = await repo.bundleProducts(q, ctx.orgId, productIds)
  const seen = new Set<string>()
  return components.map((c, i) => {
    const field = `components.${i}`
    if (c.product_id === bundleProductId)
      throw invalid(`${field}.product_id`, 'is the bundle itself: a bundle cannot contain itself', 'self_reference')
    if (!products.has(c.product_id))
      throw invalid(`${field}.product_id`, 'does not name a product of this org', 'not_found')
    if (bundles.has(c.product_id))
      throw invalid(`${field}.product_id`, 'is a bundle: bundles cannot contain bundles', 'nested_bundle')
    const variantId = c.variant_id ?? null
    if (variantId !== null && variants.get(variantId)?.productId !== c.product_id) {
      throw invalid(`${field}.variant_id`, 'does not name a variant of this product', 'not_found')
    }
    const key = `${c.product_id}|${variantId ?? ''}`
    if (seen.has(key))
      throw invalid(field, 'repeats another component: give it one entry with the total quantity', 'duplicate')
    seen.add(key)
    return { productId: c.product_id, variantId, quantity: c.quantity }
  })
}

const taken = () => invalid('product_id', 'is already a bundle', 'taken')

export function createBundlesService() {
  async function load(ctx: RequestContext, q: Queryable, id: string): Promise<Bundle> {
    const row = await repo.bundleById(q, ctx.orgId, id)
    if (!row) throw notFound('bundle')
    return toBundle(row, await repo.componentsOf(q, ctx.orgId, [id]))
  }

  return {
    async list(ctx: RequestContext, query: BundleListQuery): Promise<Page<Bundle>> {
      const afterId = afterIdOf(query.cursor)
      return ctx.db.read(async (q) => {
        const rows = await repo.listBundles(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          productId: query.product_id,
          limit: query.limit + 1,
        })
        return pageWithChildren(rows, query.limit, (ids) => repo.componentsOf(q, ctx.orgId, ids), toBundle)
      })
    },

    async get(ctx: RequestContext, id: string): Promise<Bundle> {
      return ctx.db.read((q) => load(ctx, q, id))
    },

    async create(ctx: RequestContext, input: CreateBundleBody): Promise<Bundle> {
      try {
        return await ctx.db.tx(async (q) => {
          await repo.lockBundles(q, ctx.orgId)
          if (!(await catalogRepo.productFlags(q, ctx.orgId, [input.product_id])).has(input.product_id)) {
            throw invalid('product_id', 'does not name a product of this org', 'not_found')
          }
          if ((await repo.bundleProducts(q, ctx.orgId, [input.product_id])).size > 0) throw taken()
          if (await repo.isComponent(q, ctx.orgId, input.product_id)) {
            throw invalid(
              'product_id',
              'is a component of another bundle: bundles cannot contain bundles',
              'nested_bundle',
            )
          }
          const components = await checkComponents(ctx, q, input.product_id, input.components)
          const row = await repo.insertBundle(q, ctx.orgId, newId('bndl'), input.product_id)
          await repo.replaceComponents(q, ctx.orgId, row.id, components)
          return load(ctx, q, row.id)
        })
      } catch (error) {
        if (isUniqueViolation(error, 'bundles_org_product')) throw taken()
        throw error
      }
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: BundleInput,
      expectedVersion: number | undefined,
    ): Promise<Bundle> {
      return ctx.db.tx(async (q) => {
        await repo.lockBundles(q, ctx.orgId)
        const current = await repo.bundleById(q, ctx.orgId, id)
        if (!current) throw notFound('bundle')
        if (expectedVersion !== undefined && current.version !== expectedVersion) throw staleVersion(current.version)
        const components = input.components && (await checkComponents(ctx, q, current.product_id, input.components))
        const row = await repo.touchBundle(q, ctx.orgId, id, expectedVersion)
        if (!row) throw staleVersion(current.version)
        if (components) await repo.replaceComponents(q, ctx.orgId, id, components)
        return load(ctx, q, id)
      })
    },

    /** The product stays; it simply stops being a bundle. */
    async remove(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<void> {
      await removeVersioned(ctx, 'bundles', 'bundle', id, expectedVersion)
    },

    /**
     * What each bundle product draws down from stock: its counted components (an empty list when none is counted);
     * products that are not bundles have no entry. Reads through the caller's open transaction.
     */
    async componentsOf(ctx: RequestContext, productIds: readonly string[]): Promise<Map<string, BundleComponent[]>> {
      const result = new Map<string, BundleComponent[]>()
      if (productIds.length === 0) return result
      const rows = await ctx.db.read((q) => repo.stockComponentsOf(q, ctx.orgId, [...new Set(productIds)]))
      for (const r of rows) {
        const list = result.get(r.bundle_product_id) ?? []
        if (r.counted) list.push({ productId: r.product_id, variantId: r.variant_id, quantity: r.quantity })
        result.set(r.bundle_product_id, list)
      }
      return result
    },
  }
}

export type BundlesService = ReturnType<typeof createBundlesService>
