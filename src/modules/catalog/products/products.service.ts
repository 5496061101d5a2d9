import { newId } from '../../../platform/crypto/ids.ts'
import { isUniqueViolation } from '../../../platform/db/errors.ts'
import { AppError, invalid, notFound } from '../../../platform/errors/app-error.ts'
import { staleVersion } from '../../../platform/http/concurrency.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../../platform/money/money.ts'
import { changedFields, recordAudit } from '../../audit/index.ts'
import type { OrgsService } from '../../orgs/index.ts'
import * as repo from './products.repo.ts'
import type {
  CreateProductBody,
  Product,
  ProductBatchBody,
  ProductBatchResult,
  ProductInput,
  ProductListQuery,
} from './products.schemas.ts'
import type { ProductRow } from './products.tables.ts'

export function toProduct(row: ProductRow, currency: string): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sku: row.sku,
    barcodes: row.barcodes,
    base_price: toMajor(row.base_price, currency),
    cost: row.cost === null ? null : toMajor(row.cost, currency),
    currency,
    category_id: row.category_id,
    tags: row.tags,
    is_active: row.is_active,
    track_inventory: row.track_inventory,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

const skuTaken = () => invalid('sku', 'is already used by another product or variant of this org', 'taken')
/** The unique indexes that settle a SKU race: products among themselves, and products against variants. */
const isSkuViolation = (error: unknown) =>
  isUniqueViolation(error, 'products_org_sku') || isUniqueViolation(error, 'catalog_skus_pkey')
const unique = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))]

/** A new product's row: the fields given, the defaults for the rest. */
const newProduct = (write: repo.ProductWrite & { name: string; sku: string }): Required<repo.ProductWrite> => ({
  name: write.name,
  description: write.description ?? '',
  sku: write.sku,
  barcodes: write.barcodes ?? [],
  basePrice: write.basePrice ?? 0n,
  cost: write.cost ?? null,
  categoryId: write.categoryId ?? null,
  tags: write.tags ?? [],
  isActive: write.isActive ?? true,
  trackInventory: write.trackInventory ?? true,
})

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i])

/** Whether a write would change anything of a product (an import sent again changes nothing). */
function changes(row: ProductRow, w: repo.ProductWrite): boolean {
  return (
    (w.name !== undefined && w.name !== row.name) ||
    (w.description !== undefined && w.description !== row.description) ||
    (w.barcodes !== undefined && !sameList(w.barcodes, row.barcodes)) ||
    (w.basePrice !== undefined && w.basePrice !== BigInt(row.base_price)) ||
    (w.cost !== undefined &&
      (w.cost === null ? row.cost !== null : row.cost === null || w.cost !== BigInt(row.cost))) ||
    (w.categoryId !== undefined && w.categoryId !== row.category_id) ||
    (w.tags !== undefined && !sameList(w.tags, row.tags)) ||
    (w.isActive !== undefined && w.isActive !== row.is_active) ||
    (w.trackInventory !== undefined && w.trackInventory !== row.track_inventory)
  )
}

/** A batch item's field errors, named within the batch (`products.3.base_price`). */
function inItem<T>(index: number, make: () => T): T {
  try {
    return make()
  } catch (error) {
    if (!(error instanceof AppError) || !error.errors) throw error
    const errors = error.errors.map((e) => ({ ...e, field: `products.${index}.${e.field}` }))
    throw new AppError(error.kind, errors.map((e) => `${e.field} ${e.message}`).join('; '), { errors })
  }
}

export function createProductsService(orgs: OrgsService) {
  function toWrite(input: ProductInput, currency: string): repo.ProductWrite {
    return {
      name: input.name?.trim(),
      description: input.description,
      sku: input.sku?.trim(),
      barcodes: input.barcodes && unique(input.barcodes),
      basePrice: input.base_price === undefined ? undefined : toMinor(input.base_price, currency, 'base_price'),
      cost: input.cost === undefined ? undefined : input.cost === null ? null : toMinor(input.cost, currency, 'cost'),
      categoryId: input.category_id,
      tags: input.tags && unique(input.tags),
      isActive: input.is_active,
      trackInventory: input.track_inventory,
    }
  }

  async function checkCategory(
    ctx: RequestContext,
    q: Parameters<typeof repo.categoryExists>[0],
    categoryId: string | null | undefined,
  ) {
    if (categoryId && !(await repo.categoryExists(q, ctx.orgId, categoryId))) {
      throw invalid('category_id', 'does not name a category of this org', 'not_found')
    }
  }

  /** A change of price or cost is audited, with what it was. */
  async function auditPricing(
    q: Parameters<typeof recordAudit>[0],
    ctx: RequestContext,
    before: ProductRow,
    after: ProductRow,
    currency: string,
  ) {
    const changes = changedFields(toProduct(before, currency), toProduct(after, currency), ['base_price', 'cost'])
    if (Object.keys(changes).length > 0)
      await recordAudit(q, ctx, { action: 'product.updated', record: { type: 'product', id: after.id }, changes })
  }

  return {
    async list(ctx: RequestContext, query: ProductListQuery): Promise<Page<Product>> {
      const afterId = afterIdOf(query.cursor)
      if (query.ids !== undefined && (query.q !== undefined || query.barcode !== undefined))
        throw invalid('ids', 'cannot be combined with q or barcode', 'conflicting_filters')
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read((q) =>
        repo.listProducts(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          categoryId: query.category_id,
          isActive: query.is_active,
          search: query.q,
          barcode: query.barcode,
          sku: query.sku,
          ids: query.ids?.split(','),
          limit: query.limit + 1,
        }),
      )
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toProduct(r, currency),
      )
    },

    async get(ctx: RequestContext, id: string): Promise<Product> {
      const currency = await orgs.currencyOf(ctx)
      const row = await ctx.db.read((q) => repo.productById(q, ctx.orgId, id))
      if (!row) throw notFound('product')
      return toProduct(row, currency)
    },

    async create(ctx: RequestContext, input: CreateProductBody): Promise<Product> {
      const currency = await orgs.currencyOf(ctx)
      const write = toWrite(input, currency)
      if (!write.name) throw invalid('name', 'must not be blank', 'required')
      if (!write.sku) throw invalid('sku', 'must not be blank', 'required')
      try {
        const row = await ctx.db.tx(async (q) => {
          await checkCategory(ctx, q, write.categoryId)
          if (await repo.skuTaken(q, ctx.orgId, write.sku!)) throw skuTaken()
          return repo.insertProduct(
            q,
            ctx.orgId,
            newId('prod'),
            newProduct({ ...write, name: write.name!, sku: write.sku! }),
          )
        })
        return toProduct(row, currency)
      } catch (error) {
        if (isSkuViolation(error)) throw skuTaken()
        throw error
      }
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: ProductInput,
      expectedVersion: number | undefined,
    ): Promise<Product> {
      const currency = await orgs.currencyOf(ctx)
      const write = toWrite(input, currency)
      if (write.name === '') throw invalid('name', 'must not be blank', 'required')
      if (write.sku === '') throw invalid('sku', 'must not be blank', 'required')
      try {
        const row = await ctx.db.tx(async (q) => {
          await checkCategory(ctx, q, write.categoryId)
          if (write.sku && (await repo.skuTaken(q, ctx.orgId, write.sku, id))) throw skuTaken()
          // A change of price or cost is audited: read what it was, in the transaction that changes it.
          const pricing = write.basePrice !== undefined || write.cost !== undefined
          const before = pricing ? await repo.productById(q, ctx.orgId, id) : undefined
          const updated = await repo.updateProduct(q, ctx.orgId, id, write, expectedVersion)
          if (updated && before) await auditPricing(q, ctx, before, updated, currency)
          if (updated) return updated
          const current = await repo.productById(q, ctx.orgId, id)
          if (!current) throw notFound('product')
          throw staleVersion(current.version)
        })
        return toProduct(row, currency)
      } catch (error) {
        if (isSkuViolation(error)) throw skuTaken()
        throw error
      }
    },

    /**
     * Creates and updates many products by SKU in one transaction (an import, a price change of many): a product
     * with the SKU gets the fields given, another SKU is a new product; one bad item refuses the whole batch,
     * naming its field (`products.<i>.<field>`). Items that change nothing are left as they are.
     */
    async batch(ctx: RequestContext, body: ProductBatchBody): Promise<ProductBatchResult> {
      const currency = await orgs.currencyOf(ctx)
      const writes = body.products.map((item, i) =>
        inItem(i, () => {
          const write = toWrite(item, currency)
          if (!write.sku) throw invalid('sku', 'must not be blank', 'required')
          if (write.name === '') throw invalid('name', 'must not be blank', 'required')
          return { ...write, sku: write.sku }
        }),
      )
      const first = new Map<string, number>()
      writes.forEach((w, i) => {
        const earlier = first.get(w.sku)
        if (earlier !== undefined) throw invalid(`products.${i}.sku`, `repeats products.${earlier}.sku`, 'duplicate')
        first.set(w.sku, i)
      })
      try {
        const done = await ctx.db.tx(async (q) => {
          const skus = [...first.keys()]
          const existing = new Map((await repo.lockProductsBySkus(q, ctx.orgId, skus)).map((r) => [r.sku, r]))
          const ofVariants = await repo.variantSkus(q, ctx.orgId, skus)
          for (const categoryId of new Set(writes.map((w) => w.categoryId).filter(Boolean))) {
            const index = writes.findIndex((w) => w.categoryId === categoryId)
            await checkCategory(ctx, q, categoryId).catch((error: unknown) =>
              inItem(index, () => {
                throw error
              }),
            )
          }
          const out: { row: ProductRow; created: boolean; updated: boolean }[] = []
          for (const [i, w] of writes.entries()) {
            if (ofVariants.has(w.sku))
              throw invalid(`products.${i}.sku`, 'is the SKU of a variant of this org', 'taken')
            const before = existing.get(w.sku)
            const expected = body.products[i].version
            if (expected !== undefined && before?.version !== expected) throw staleVersion(before?.version ?? 0)
            if (before && !changes(before, w)) out.push({ row: before, created: false, updated: false })
            else if (before) {
              const updated = (await repo.updateProduct(q, ctx.orgId, before.id, w, undefined))!
              await auditPricing(q, ctx, before, updated, currency)
              out.push({ row: updated, created: false, updated: true })
            } else {
              if (!w.name) throw invalid(`products.${i}.name`, 'is required for a new product', 'required')
              if (w.basePrice === undefined)
                throw invalid(`products.${i}.base_price`, 'is required for a new product', 'required')
              const row = await repo.insertProduct(q, ctx.orgId, newId('prod'), newProduct({ ...w, name: w.name }))
              out.push({ row, created: true, updated: false })
            }
          }
          return out
        })
        return {
          created: done.filter((d) => d.created).length,
          updated: done.filter((d) => d.updated).length,
          products: done.map((d) => toProduct(d.row, currency)),
        }
      } catch (error) {
        if (isSkuViolation(error)) throw invalid('products', 'a SKU was taken meanwhile; send the batch again', 'taken')
        throw error
      }
    },

    /** DELETE archives: the product stays for order history, inactive. Archiving twice is harmless. */
    async archive(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<Product> {
      return this.update(ctx, id, { is_active: false }, expectedVersion)
    },

    /** Batch look-ups for GraphQL loaders and other domains: one query for many ids. */
    async byIds(ctx: RequestContext, ids: readonly string[]): Promise<Product[]> {
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read((q) => repo.productsByIds(q, ctx.orgId, ids))
      return rows.map((r) => toProduct(r, currency))
    },

    async byCategories(ctx: RequestContext, categoryIds: readonly string[]): Promise<Product[]> {
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read((q) => repo.productsByCategories(q, ctx.orgId, categoryIds))
      return rows.map((r) => toProduct(r, currency))
    },
  }
}

export type ProductsService = ReturnType<typeof createProductsService>
