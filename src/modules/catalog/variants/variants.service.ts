import { newId } from '../../../platform/crypto/ids.ts'
import { isUniqueViolation } from '../../../platform/db/errors.ts'
import { invalid, notFound } from '../../../platform/errors/app-error.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../../platform/money/money.ts'
import type { OrgsService } from '../../orgs/index.ts'
import * as catalogRepo from '../catalog.repo.ts'
import { skuTaken } from '../products/products.repo.ts'
import { missingOrStale } from '../versioned.ts'
import * as repo from './variants.repo.ts'
import type { CreateVariantBody, Variant, VariantInput, VariantListQuery } from './variants.schemas.ts'
import type { VariantRow } from './variants.tables.ts'

export function toVariant(row: VariantRow, currency: string): Variant {
  return {
    id: row.id,
    product_id: row.product_id,
    name: row.name,
    sku: row.sku,
    option_values: row.option_values,
    price: row.price === null ? null : toMajor(row.price, currency),
    cost: row.cost === null ? null : toMajor(row.cost, currency),
    currency,
    barcodes: row.barcodes,
    is_active: row.is_active,
    track_inventory: row.track_inventory,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

const taken = () => invalid('sku', 'is already used by another product or variant of this org', 'taken')
const isSkuViolation = (error: unknown) =>
  isUniqueViolation(error, 'product_variants_org_sku') || isUniqueViolation(error, 'catalog_skus_pkey')
const unique = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))]

export function createVariantsService(orgs: OrgsService) {
  function toWrite(input: VariantInput, currency: string): repo.VariantWrite {
    const write: repo.VariantWrite = {
      name: input.name?.trim(),
      sku: input.sku?.trim(),
      optionValues: input.option_values,
      price: input.price === undefined || input.price === null ? input.price : toMinor(input.price, currency, 'price'),
      cost: input.cost === undefined || input.cost === null ? input.cost : toMinor(input.cost, currency, 'cost'),
      barcodes: input.barcodes && unique(input.barcodes),
      isActive: input.is_active,
      trackInventory: input.track_inventory,
    }
    if (write.name === '') throw invalid('name', 'must not be blank', 'required')
    if (write.sku === '') throw invalid('sku', 'must not be blank', 'required')
    return write
  }

  async function guardSku<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      if (isSkuViolation(error)) throw taken()
      throw error
    }
  }

  return {
    async list(ctx: RequestContext, productId: string, query: VariantListQuery): Promise<Page<Variant>> {
      const afterId = afterIdOf(query.cursor)
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read(async (q) => {
        if (!(await catalogRepo.productFlags(q, ctx.orgId, [productId])).has(productId)) throw notFound('product')
        return repo.listVariants(q, ctx.orgId, productId, {
          afterId: afterId ?? undefined,
          isActive: query.is_active,
          limit: query.limit + 1,
        })
      })
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toVariant(r, currency),
      )
    },

    async get(ctx: RequestContext, id: string): Promise<Variant> {
      const currency = await orgs.currencyOf(ctx)
      const row = await ctx.db.read((q) => repo.variantById(q, ctx.orgId, id))
      if (!row) throw notFound('variant')
      return toVariant(row, currency)
    },

    async create(ctx: RequestContext, productId: string, input: CreateVariantBody): Promise<Variant> {
      const currency = await orgs.currencyOf(ctx)
      const write = toWrite(input, currency)
      const row = await guardSku(() =>
        ctx.db.tx(async (q) => {
          if (!(await catalogRepo.productFlags(q, ctx.orgId, [productId])).has(productId)) throw notFound('product')
          if (await skuTaken(q, ctx.orgId, write.sku!)) throw taken()
          return repo.insertVariant(q, ctx.orgId, newId('var'), productId, {
            name: write.name!,
            sku: write.sku!,
            optionValues: write.optionValues ?? {},
            price: write.price ?? null,
            cost: write.cost ?? null,
            barcodes: write.barcodes ?? [],
            isActive: write.isActive ?? true,
            trackInventory: write.trackInventory ?? true,
          })
        }),
      )
      return toVariant(row, currency)
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: VariantInput,
      expectedVersion: number | undefined,
    ): Promise<Variant> {
      const currency = await orgs.currencyOf(ctx)
      const write = toWrite(input, currency)
      const row = await guardSku(() =>
        ctx.db.tx(async (q) => {
          if (write.sku && (await skuTaken(q, ctx.orgId, write.sku, id))) throw taken()
          const updated = await repo.updateVariant(q, ctx.orgId, id, write, expectedVersion)
          return updated ?? missingOrStale(q, 'product_variants', ctx.orgId, id, 'variant')
        }),
      )
      return toVariant(row, currency)
    },

    /** Batch look-up for other domains and GraphQL loaders: one query for many ids; unknown ids are left out. */
    async byIds(ctx: RequestContext, ids: readonly string[]): Promise<Variant[]> {
      if (ids.length === 0) return []
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read((q) => repo.variantsByIds(q, ctx.orgId, [...new Set(ids)]))
      return rows.map((r) => toVariant(r, currency))
    },

    /** Every variant of the given products (archived ones too), for GraphQL loaders. */
    async byProducts(ctx: RequestContext, productIds: readonly string[]): Promise<Variant[]> {
      if (productIds.length === 0) return []
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read((q) => repo.variantsOfProducts(q, ctx.orgId, [...new Set(productIds)]))
      return rows.map((r) => toVariant(r, currency))
    },

    /** DELETE archives: orders keep naming the variant, which stops selling. */
    async archive(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<Variant> {
      return this.update(ctx, id, { is_active: false }, expectedVersion)
    },
  }
}

export type VariantsService = ReturnType<typeof createVariantsService>
