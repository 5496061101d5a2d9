import type { IResolvers, MercuriusLoaders } from 'mercurius'
import { AppError } from '../../../platform/errors/app-error.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { encodeCursor } from '../../../platform/http/pagination.ts'
import type { CatalogService } from '../catalog.service.ts'
import type { Variant } from '../variants/variants.schemas.ts'
import { type GraphqlContext, guard } from './context.ts'
import { toGraphqlError, userInputError } from './errors.ts'
import { createInput, type GraphqlProduct, toGraphqlProduct, updateInput } from './products.mapping.ts'
import {
  type Category,
  fromCategoriesService,
  fromModifiersService,
  type GraphqlReads,
  type ModifierGroupWithOptions,
} from './reads.service.ts'
import { DEFAULT_LIMIT, MAX_LIMIT } from './schema.ts'

type Maybe<T> = T | null | undefined

interface ListArgs {
  orgId?: Maybe<string>
  limit?: Maybe<number>
  after?: Maybe<string>
}

/** Services errors leave as GraphQL errors with the same meaning (code, status, field). */
async function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    throw toGraphqlError(error)
  }
}

function checkLimit(limit: Maybe<number>, fallback = DEFAULT_LIMIT): number {
  const value = limit ?? fallback
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw userInputError([{ field: 'limit', message: `must be between 1 and ${MAX_LIMIT}`, code: 'out_of_range' }])
  }
  return value
}

/** A text filter (`search`, `barcode`, `sku`): empty means none, and at most 200 characters, as in REST. */
function checkText(field: string, text: Maybe<string>): string | undefined {
  if (text === null || text === undefined || text === '') return undefined
  if (text.length > 200)
    throw userInputError([{ field, message: 'must be at most 200 characters', code: 'out_of_range' }])
  return text
}

/** The request context of a nested field: its root field has already checked the credential. */
function nestedCtx(context: GraphqlContext): RequestContext {
  if (context.auth.error) throw context.auth.error
  return context.auth.ctx
}

export function createResolvers(catalog: CatalogService, reads: GraphqlReads): IResolvers {
  const { products } = catalog
  return {
    Query: {
      products: (
        _root: unknown,
        args: ListArgs & {
          categoryId?: Maybe<string>
          isActive?: Maybe<boolean>
          search?: Maybe<string>
          barcode?: Maybe<string>
          sku?: Maybe<string>
        },
        context: GraphqlContext,
      ) =>
        run(async () => {
          const ctx = guard(context, 'catalog:read', args.orgId)
          const page = await products.list(ctx, {
            limit: checkLimit(args.limit),
            cursor: args.after ? encodeCursor([args.after]) : undefined,
            category_id: args.categoryId ?? undefined,
            is_active: args.isActive ?? undefined,
            q: checkText('search', args.search),
            barcode: checkText('barcode', args.barcode),
            sku: checkText('sku', args.sku),
          })
          return page.data.map(toGraphqlProduct)
        }),

      product: (_root: unknown, args: { id: string }, context: GraphqlContext) =>
        run(async () => {
          const ctx = guard(context, 'catalog:read')
          try {
            return toGraphqlProduct(await products.get(ctx, args.id))
          } catch (error) {
            // Another org's product and a missing one look the same: null, as a missing object does in GraphQL.
            if (error instanceof AppError && error.kind === 'not-found') return null
            throw error
          }
        }),

      variant: (_root: unknown, args: { id: string }, context: GraphqlContext) =>
        run(async () => {
          const ctx = guard(context, 'catalog:read')
          try {
            return toGraphqlVariant(await catalog.variants.get(ctx, args.id))
          } catch (error) {
            if (error instanceof AppError && error.kind === 'not-found') return null
            throw error
          }
        }),

      categories: (
        _root: unknown,
        args: ListArgs & { parentId?: Maybe<string>; isActive?: Maybe<boolean> },
        context: GraphqlContext,
      ) =>
        run(async () => {
          const ctx = guard(context, 'catalog:read', args.orgId)
          const limit = checkLimit(args.limit, MAX_LIMIT)
          // The list is ordered as REST orders it, by (sortOrder, id); `after` names the last category seen.
          let cursor: string | undefined
          if (args.after) {
            const [last] = await reads.categoriesByIds(ctx, [args.after])
            if (!last)
              throw userInputError([
                { field: 'after', message: 'does not name a category of this org', code: 'not_found' },
              ])
            cursor = encodeCursor([last.sortOrder, last.id])
          }
          const page = await catalog.categories.list(ctx, {
            limit,
            cursor,
            parent_id: args.parentId ?? undefined,
            is_active: args.isActive ?? undefined,
          })
          return page.data.map(fromCategoriesService)
        }),

      modifierGroups: (_root: unknown, args: ListArgs & { productId?: Maybe<string> }, context: GraphqlContext) =>
        run(async () => {
          const ctx = guard(context, 'catalog:read', args.orgId)
          const page = await catalog.modifiers.list(ctx, {
            limit: checkLimit(args.limit, MAX_LIMIT),
            cursor: args.after ? encodeCursor([args.after]) : undefined,
            product_id: args.productId ?? undefined,
          })
          return page.data.map(fromModifiersService)
        }),
    },

    Mutation: {
      createProduct: (_root: unknown, args: { input: Record<string, unknown> }, context: GraphqlContext) =>
        run(async () => {
          const ctx = guard(context, 'catalog:write')
          return toGraphqlProduct(await products.create(ctx, createInput(args.input)))
        }),

      updateProduct: (_root: unknown, args: { id: string; input: Record<string, unknown> }, context: GraphqlContext) =>
        run(async () => {
          const ctx = guard(context, 'catalog:write')
          const { fields, version } = updateInput(args.input)
          return toGraphqlProduct(await products.update(ctx, args.id, fields, version))
        }),

      deleteProduct: (_root: unknown, args: { id: string; version?: Maybe<number> }, context: GraphqlContext) =>
        run(async () => {
          const ctx = guard(context, 'catalog:write')
          return toGraphqlProduct(await products.archive(ctx, args.id, args.version ?? undefined))
        }),
    },
  } as IResolvers
}

type Query<P, A = Record<string, never>> = { obj: P; params: A }

/**
 * Nested fields resolve through mercurius loaders: every parent of one level is answered by one call, so a
 * list of 200 products with their categories costs two queries, not 201.
 */
export function createLoaders(reads: GraphqlReads, catalog: CatalogService): MercuriusLoaders {
  return {
    Product: {
      async category(queries: Query<GraphqlProduct>[], context: GraphqlContext) {
        return run(async () => {
          const ids = [...new Set(queries.map((q) => q.obj.categoryId).filter((id): id is string => id !== null))]
          const found = await reads.categoriesByIds(nestedCtx(context), ids)
          const byId = new Map(ids.map((id, i) => [id, found[i]]))
          return queries.map((q) => (q.obj.categoryId === null ? null : (byId.get(q.obj.categoryId) ?? null)))
        })
      },
      async variants(queries: Query<GraphqlProduct>[], context: GraphqlContext) {
        return run(async () => {
          const ids = queries.map((q) => q.obj.id)
          const all = await catalog.variants.byProducts(nestedCtx(context), ids)
          return ids.map((id) => all.filter((v) => v.product_id === id).map(toGraphqlVariant))
        })
      },
      async modifierGroups(queries: Query<GraphqlProduct>[], context: GraphqlContext) {
        return run(() =>
          reads.modifierGroupsOfProducts(
            nestedCtx(context),
            queries.map((q) => q.obj.id),
          ),
        )
      },
    },
    Category: {
      async products(
        queries: Query<Category, { isActive?: Maybe<boolean>; limit?: Maybe<number> }>[],
        context: GraphqlContext,
      ) {
        return run(async () => {
          const ctx = nestedCtx(context)
          // One query per distinct argument set (usually one): the same limit applies to every category of it.
          const groups = new Map<string, { isActive?: boolean; limit: number; indexes: number[] }>()
          queries.forEach((q, i) => {
            const limit = checkLimit(q.params.limit)
            const isActive = q.params.isActive ?? undefined
            const key = `${limit}|${isActive}`
            const group = groups.get(key) ?? { isActive, limit, indexes: [] }
            group.indexes.push(i)
            groups.set(key, group)
          })
          const answers: GraphqlProduct[][] = new Array(queries.length)
          for (const group of groups.values()) {
            const ids = group.indexes.map((i) => queries[i].obj.id)
            const lists = await reads.productsOfCategories(ctx, ids, { isActive: group.isActive, limit: group.limit })
            group.indexes.forEach((queryIndex, j) => {
              answers[queryIndex] = lists[j].map(toGraphqlProduct)
            })
          }
          return answers
        })
      },
    },
    ModifierGroup: {
      async options(queries: Query<ModifierGroupWithOptions>[], context: GraphqlContext) {
        // Groups of the root query come with their options (the modifiers service loads them in one query).
        if (queries.every((q) => q.obj.options)) return queries.map((q) => q.obj.options)
        return run(() =>
          reads.optionsOfGroups(
            nestedCtx(context),
            queries.map((q) => q.obj.id),
          ),
        )
      },
    },
  } as unknown as MercuriusLoaders
}

/** Timestamps of categories leave as ISO 8601 strings, as products' do. */
export const scalarFieldResolvers = {
  Category: {
    createdAt: (c: Category) => c.createdAt.toISOString(),
    updatedAt: (c: Category) => c.updatedAt.toISOString(),
  },
}

/** A variant as GraphQL shows it: camelCase, option values as name/value pairs. */
function toGraphqlVariant(v: Variant) {
  return {
    id: v.id,
    productId: v.product_id,
    name: v.name,
    sku: v.sku,
    optionValues: Object.entries(v.option_values).map(([name, value]) => ({ name, value })),
    price: v.price,
    currency: v.currency,
    barcodes: v.barcodes,
    isActive: v.is_active,
    version: v.version,
    createdAt: v.created_at.toISOString(),
    updatedAt: v.updated_at.toISOString(),
  }
}
