import type { RequestContext } from '../../../platform/http/context.ts'
import { toMajor } from '../../../platform/money/money.ts'
import type { OrgsService } from '../../orgs/index.ts'
import type { Category as CategoriesServiceCategory } from '../categories/categories.schemas.ts'
import type { CategoryRow } from '../categories/categories.tables.ts'
import type { ModifierGroup as ModifiersServiceGroup } from '../modifiers/modifiers.schemas.ts'
import type { LoaderGroupRow } from '../modifiers/modifiers.tables.ts'
import type { Product } from '../products/products.schemas.ts'
import { toProduct } from '../products/products.service.ts'
import * as repo from './loaders.repo.ts'

export interface Category {
  id: string
  name: string
  description: string
  parentId: string | null
  sortOrder: number
  isActive: boolean
  version: number
  createdAt: Date
  updatedAt: Date
}

interface ModifierGroup {
  id: string
  name: string
  required: boolean
  minSelections: number
  maxSelections: number | null
}

interface ModifierOption {
  id: string
  name: string
  priceAdjustment: number
  isDefault: boolean
}

/** A group as the root query answers it: the modifiers service loads its options with it. */
export interface ModifierGroupWithOptions extends ModifierGroup {
  options?: ModifierOption[]
}

/** The categories service's category (REST's snake_case) as the GraphQL schema shows it. */
export function fromCategoriesService(c: CategoriesServiceCategory): Category {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    parentId: c.parent_id,
    sortOrder: c.sort_order,
    isActive: c.is_active,
    version: c.version,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  }
}

/** The modifiers service's group, with its options, as the GraphQL schema shows it. */
export function fromModifiersService(g: ModifiersServiceGroup): ModifierGroupWithOptions {
  return {
    id: g.id,
    name: g.name,
    required: g.required,
    minSelections: g.min_selections,
    maxSelections: g.max_selections,
    options: g.options.map((o) => ({
      id: o.id,
      name: o.name,
      priceAdjustment: o.price_adjustment,
      isDefault: o.is_default,
    })),
  }
}

function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parentId: row.parent_id,
    sortOrder: row.sort_order,
    isActive: row.is_active,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function toGroup(row: LoaderGroupRow): ModifierGroup {
  return {
    id: row.id,
    name: row.name,
    required: row.required,
    minSelections: row.min_selections,
    maxSelections: row.max_selections,
  }
}

/** Groups `rows` by `keyOf` in the order of `keys`: what a batched loader answers, one list per parent. */
function groupBy<R, T>(
  keys: readonly string[],
  rows: readonly R[],
  keyOf: (row: R) => string,
  map: (row: R) => T,
): T[][] {
  const byKey = new Map<string, T[]>(keys.map((k) => [k, []]))
  for (const row of rows) byKey.get(keyOf(row))?.push(map(row))
  return keys.map((k) => byKey.get(k) ?? [])
}

/**
 * The catalog reads the GraphQL API batches: each call answers many parents with one query, in the order of
 * the keys it was given.
 */
export function createGraphqlReads(orgs: OrgsService) {
  return {
    async categoriesByIds(ctx: RequestContext, ids: readonly string[]): Promise<(Category | null)[]> {
      const rows = ids.length === 0 ? [] : await ctx.db.read((q) => repo.categoriesByIds(q, ctx.orgId, ids))
      const byId = new Map(rows.map((r) => [r.id, toCategory(r)]))
      return ids.map((id) => byId.get(id) ?? null)
    },

    async productsOfCategories(
      ctx: RequestContext,
      categoryIds: readonly string[],
      f: { isActive?: boolean; limit: number },
    ): Promise<Product[][]> {
      const currency = await orgs.currencyOf(ctx)
      // unnest() would repeat a category given twice; each is asked once and its list shared.
      const unique = [...new Set(categoryIds)]
      const rows = await ctx.db.read((q) => repo.productsOfCategories(q, ctx.orgId, unique, f))
      return groupBy(
        categoryIds,
        rows,
        (r) => r.category_id ?? '',
        (r) => toProduct(r, currency),
      )
    },

    async modifierGroupsOfProducts(ctx: RequestContext, productIds: readonly string[]): Promise<ModifierGroup[][]> {
      const rows = await ctx.db.read((q) => repo.modifierGroupsOfProducts(q, ctx.orgId, productIds))
      return groupBy(productIds, rows, (r) => r.product_id ?? '', toGroup)
    },

    async optionsOfGroups(ctx: RequestContext, groupIds: readonly string[]): Promise<ModifierOption[][]> {
      const currency = await orgs.currencyOf(ctx)
      const rows = await ctx.db.read((q) => repo.optionsOfGroups(q, ctx.orgId, groupIds))
      return groupBy(
        groupIds,
        rows,
        (r) => r.group_id,
        (r) => ({
          id: r.id,
          name: r.name,
          priceAdjustment: toMajor(r.price_adjustment, currency),
          isDefault: r.is_default,
        }),
      )
    },
  }
}

export type GraphqlReads = ReturnType<typeof createGraphqlReads>
