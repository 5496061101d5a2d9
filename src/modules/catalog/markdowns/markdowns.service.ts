import { newId } from '../../../platform/crypto/ids.ts'
import type { Queryable } from '../../../platform/db/database.ts'
import { invalid, notFound } from '../../../platform/errors/app-error.ts'
import { staleVersion } from '../../../platform/http/concurrency.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page } from '../../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../../platform/money/money.ts'
import { e4ToPercent, PERCENT_E4, percentToE4 } from '../../../platform/money/percent.ts'
import type { OrgsService } from '../../orgs/index.ts'
import * as catalogRepo from '../catalog.repo.ts'
import { pageWithChildren } from '../child-rows.ts'
import { parseWindow } from '../pricing/pricing.schemas.ts'
import { removeVersioned } from '../versioned.ts'
import * as repo from './markdowns.repo.ts'
import type { CreateMarkdownBody, Kind, Markdown, MarkdownInput, MarkdownListQuery } from './markdowns.schemas.ts'
import type { MarkdownRow, TargetRow } from './markdowns.tables.ts'

export function toMarkdown(row: MarkdownRow, targets: TargetRow[], currency: string): Markdown {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    value: row.kind === 'percentage' ? e4ToPercent(Number(row.value)) : toMajor(row.value, currency),
    currency,
    product_ids: targets.filter((t) => t.markdown_id === row.id).map((t) => t.product_id),
    category_id: row.category_id,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    is_active: row.is_active,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** Percentages are stored exactly in the one unit of percentages (percent × 10,000): at most 4 decimals, at most 100. */
function storedValue(kind: Kind, value: number, currency: string): bigint {
  if (kind === 'amount') return toMinor(value, currency, 'value')
  const e4 = percentToE4(value)
  if (e4 === null) throw invalid('value', 'must be a percentage with at most 4 decimal places', 'too_precise')
  if (e4 <= 0 || BigInt(e4) > PERCENT_E4)
    throw invalid('value', 'must be a percentage above 0 and at most 100', 'out_of_range')
  return BigInt(e4)
}

/** A markdown targets either products or one category, never both and never nothing. */
async function checkTargets(
  ctx: RequestContext,
  q: Queryable,
  productIds: readonly string[],
  categoryId: string | null,
): Promise<void> {
  if (productIds.length > 0 && categoryId !== null)
    throw invalid('category_id', 'cannot be combined with product_ids: a markdown has one target', 'conflicting_target')
  if (productIds.length === 0 && categoryId === null)
    throw invalid('product_ids', 'or category_id is required', 'required')
  if (categoryId !== null && !(await repo.categoryExists(q, ctx.orgId, categoryId))) {
    throw invalid('category_id', 'does not name a category of this org', 'not_found')
  }
  const products = await catalogRepo.productFlags(q, ctx.orgId, productIds)
  productIds.forEach((id, i) => {
    if (!products.has(id)) throw invalid(`product_ids.${i}`, 'does not name a product of this org', 'not_found')
  })
}

const unique = (ids: readonly string[]) => [...new Set(ids)]

export function createMarkdownsService(orgs: OrgsService) {
  async function load(ctx: RequestContext, q: Queryable, id: string, currency: string): Promise<Markdown> {
    const row = await repo.markdownById(q, ctx.orgId, id)
    if (!row) throw notFound('markdown')
    return toMarkdown(row, await repo.targetsOf(q, ctx.orgId, [id]), currency)
  }

  return {
    async list(ctx: RequestContext, query: MarkdownListQuery): Promise<Page<Markdown>> {
      const afterId = afterIdOf(query.cursor)
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read(async (q) => {
        const rows = await repo.listMarkdowns(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          productId: query.product_id,
          categoryId: query.category_id,
          isActive: query.is_active,
          limit: query.limit + 1,
        })
        return pageWithChildren(
          rows,
          query.limit,
          (ids) => repo.targetsOf(q, ctx.orgId, ids),
          (r, targets) => toMarkdown(r, targets, currency),
        )
      })
    },

    async get(ctx: RequestContext, id: string): Promise<Markdown> {
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read((q) => load(ctx, q, id, currency))
    },

    async create(ctx: RequestContext, input: CreateMarkdownBody): Promise<Markdown> {
      const currency = await orgs.currencyOf(ctx)
      const name = input.name.trim()
      if (!name) throw invalid('name', 'must not be blank', 'required')
      const value = storedValue(input.kind, input.value, currency)
      const window = parseWindow(input)
      const productIds = unique(input.product_ids ?? [])
      const categoryId = input.category_id ?? null
      return ctx.db.tx(async (q) => {
        await checkTargets(ctx, q, productIds, categoryId)
        const row = await repo.insertMarkdown(q, ctx.orgId, newId('mkd'), {
          name,
          kind: input.kind,
          value,
          categoryId,
          startsAt: window.startsAt ?? null,
          endsAt: window.endsAt ?? null,
          isActive: input.is_active ?? true,
        })
        await repo.replaceTargets(q, ctx.orgId, row.id, productIds)
        return load(ctx, q, row.id, currency)
      })
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: MarkdownInput,
      expectedVersion: number | undefined,
    ): Promise<Markdown> {
      const currency = await orgs.currencyOf(ctx)
      const name = input.name?.trim()
      if (name === '') throw invalid('name', 'must not be blank', 'required')
      if (input.kind !== undefined && input.value === undefined)
        throw invalid('value', 'is required when kind changes', 'required')
      return ctx.db.tx(async (q) => {
        const current = await repo.markdownById(q, ctx.orgId, id)
        if (!current) throw notFound('markdown')
        const kind = input.kind ?? current.kind
        const value = input.value === undefined ? undefined : storedValue(kind, input.value, currency)
        const window = parseWindow(input, current)
        const productIds = input.product_ids && unique(input.product_ids)
        if (productIds !== undefined || input.category_id !== undefined) {
          const targets = productIds ?? (await repo.targetsOf(q, ctx.orgId, [id])).map((t) => t.product_id)
          await checkTargets(ctx, q, targets, input.category_id === undefined ? current.category_id : input.category_id)
        }
        const write = {
          name,
          kind: input.kind,
          value,
          categoryId: input.category_id,
          startsAt: window.startsAt,
          endsAt: window.endsAt,
          isActive: input.is_active,
        }
        if (!(await repo.updateMarkdown(q, ctx.orgId, id, write, expectedVersion))) throw staleVersion(current.version)
        if (productIds) await repo.replaceTargets(q, ctx.orgId, id, productIds)
        return load(ctx, q, id, currency)
      })
    },

    async remove(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<void> {
      await removeVersioned(ctx, 'markdowns', 'markdown', id, expectedVersion)
    },
  }
}

export type MarkdownsService = ReturnType<typeof createMarkdownsService>
