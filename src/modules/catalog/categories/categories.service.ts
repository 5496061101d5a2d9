import { newId } from '../../../platform/crypto/ids.ts'
import type { Queryable } from '../../../platform/db/database.ts'
import { badRequest, invalid, notFound } from '../../../platform/errors/app-error.ts'
import { staleVersion } from '../../../platform/http/concurrency.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { decodeCursor, type Page, toPage } from '../../../platform/http/pagination.ts'
import * as repo from './categories.repo.ts'
import type { Category, CategoryInput, CategoryListQuery, CreateCategoryBody } from './categories.schemas.ts'
import type { CategoryRow } from './categories.tables.ts'

export function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parent_id: row.parent_id,
    sort_order: row.sort_order,
    is_active: row.is_active,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** The list is ordered by (sort_order, id), so its cursor carries both. */
function afterOf(cursor: string | undefined): { sortOrder: number; id: string } | undefined {
  const key = decodeCursor(cursor, 2)
  if (!key) return undefined
  const [sortOrder, id] = key
  if (typeof sortOrder !== 'number' || !Number.isInteger(sortOrder) || typeof id !== 'string') {
    throw badRequest('cursor is malformed', [
      { field: 'cursor', message: 'is not a cursor this API issued', code: 'invalid_cursor' },
    ])
  }
  return { sortOrder, id }
}

/** A parent must be a category of the org, and never the category itself or one of its descendants. */
async function checkParent(
  ctx: RequestContext,
  q: Queryable,
  id: string | null,
  parentId: string | null | undefined,
): Promise<void> {
  if (!parentId) return
  const chain = await repo.ancestorsOf(q, ctx.orgId, parentId)
  if (chain.length === 0) throw invalid('parent_id', 'does not name a category of this org', 'not_found')
  if (id !== null && chain.includes(id)) throw invalid('parent_id', 'would make the category its own ancestor', 'cycle')
}

export function createCategoriesService() {
  return {
    async list(ctx: RequestContext, query: CategoryListQuery): Promise<Page<Category>> {
      const after = afterOf(query.cursor)
      const parentId = query.parent_id === undefined ? undefined : query.parent_id === 'null' ? null : query.parent_id
      const rows = await ctx.db.read((q) =>
        repo.listCategories(q, ctx.orgId, { after, parentId, isActive: query.is_active, limit: query.limit + 1 }),
      )
      return toPage(rows, query.limit, (r) => [r.sort_order, r.id], toCategory)
    },

    async get(ctx: RequestContext, id: string): Promise<Category> {
      const row = await ctx.db.read((q) => repo.categoryById(q, ctx.orgId, id))
      if (!row) throw notFound('category')
      return toCategory(row)
    },

    async create(ctx: RequestContext, input: CreateCategoryBody): Promise<Category> {
      const name = input.name.trim()
      if (!name) throw invalid('name', 'must not be blank', 'required')
      const row = await ctx.db.tx(async (q) => {
        await repo.lockTree(q, ctx.orgId)
        await checkParent(ctx, q, null, input.parent_id)
        return repo.insertCategory(q, ctx.orgId, newId('cat'), {
          name,
          description: input.description ?? '',
          parentId: input.parent_id ?? null,
          sortOrder: input.sort_order ?? 0,
          isActive: input.is_active ?? true,
        })
      })
      return toCategory(row)
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: CategoryInput,
      expectedVersion: number | undefined,
    ): Promise<Category> {
      const name = input.name?.trim()
      if (name === '') throw invalid('name', 'must not be blank', 'required')
      const row = await ctx.db.tx(async (q) => {
        if (input.parent_id !== undefined) {
          await repo.lockTree(q, ctx.orgId)
          if (!(await repo.categoryById(q, ctx.orgId, id))) throw notFound('category')
          await checkParent(ctx, q, id, input.parent_id)
        }
        const write = {
          name,
          description: input.description,
          parentId: input.parent_id,
          sortOrder: input.sort_order,
          isActive: input.is_active,
        }
        const updated = await repo.updateCategory(q, ctx.orgId, id, write, expectedVersion)
        if (updated) return updated
        const current = await repo.categoryById(q, ctx.orgId, id)
        if (!current) throw notFound('category')
        throw staleVersion(current.version)
      })
      return toCategory(row)
    },

    /** DELETE archives, like products: products and subcategories keep pointing at it. */
    async archive(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<Category> {
      return this.update(ctx, id, { is_active: false }, expectedVersion)
    },
  }
}

export type CategoriesService = ReturnType<typeof createCategoriesService>
