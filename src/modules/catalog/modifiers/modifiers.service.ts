import { newId } from '../../../platform/crypto/ids.ts'
import type { Queryable } from '../../../platform/db/database.ts'
import { invalid, notFound } from '../../../platform/errors/app-error.ts'
import { staleVersion } from '../../../platform/http/concurrency.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page } from '../../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../../platform/money/money.ts'
import type { OrgsService } from '../../orgs/index.ts'
import * as catalogRepo from '../catalog.repo.ts'
import { pageWithChildren, withChildren } from '../child-rows.ts'
import { removeVersioned } from '../versioned.ts'
import * as repo from './modifiers.repo.ts'
import type {
  CreateGroupBody,
  CreateOptionBody,
  GroupInput,
  GroupListQuery,
  ModifierGroup,
  ModifierOption,
  OptionInput,
} from './modifiers.schemas.ts'
import type { GroupRow, OptionRow } from './modifiers.tables.ts'

function toOption(row: OptionRow, currency: string): ModifierOption {
  return {
    id: row.id,
    group_id: row.group_id,
    name: row.name,
    price_adjustment: toMajor(row.price_adjustment, currency),
    is_default: row.is_default,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function toGroup(row: GroupRow, options: OptionRow[], currency: string): ModifierGroup {
  return {
    id: row.id,
    name: row.name,
    required: row.required,
    min_selections: row.min_selections,
    max_selections: row.max_selections,
    currency,
    options: options.filter((o) => o.group_id === row.id).map((o) => toOption(o, currency)),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function checkBounds(min: number, max: number | null): void {
  if (max !== null && max < min)
    throw invalid('max_selections', `must be at least min_selections (${min})`, 'less_than_min')
}

function optionWrite(input: OptionInput, currency: string, field: string): repo.OptionWrite {
  const name = input.name?.trim()
  if (name === '') throw invalid(`${field}name`, 'must not be blank', 'required')
  return {
    name,
    priceAdjustment:
      input.price_adjustment === undefined
        ? undefined
        : toMinor(input.price_adjustment, currency, `${field}price_adjustment`, { allowNegative: true }),
    isDefault: input.is_default,
  }
}

export function createModifiersService(orgs: OrgsService) {
  async function groupsWithOptions(
    ctx: RequestContext,
    q: Queryable,
    rows: GroupRow[],
    currency: string,
  ): Promise<ModifierGroup[]> {
    return withChildren(
      rows,
      (ids) => repo.optionsOf(q, ctx.orgId, ids),
      (r, options) => toGroup(r, options, currency),
    )
  }

  /** An option write that matched no row: 404 when the group has no such option, else 409 with its version. */
  async function optionMissingOrStale(
    ctx: RequestContext,
    q: Queryable,
    groupId: string,
    optionId: string,
  ): Promise<never> {
    const current = await repo.optionById(q, ctx.orgId, groupId, optionId)
    if (!current) throw notFound('modifier option')
    throw staleVersion(current.version)
  }

  async function load(ctx: RequestContext, q: Queryable, id: string, currency: string): Promise<ModifierGroup> {
    const [row] = await repo.groupsByIds(q, ctx.orgId, [id])
    if (!row) throw notFound('modifier group')
    return (await groupsWithOptions(ctx, q, [row], currency))[0]
  }

  return {
    async list(ctx: RequestContext, query: GroupListQuery): Promise<Page<ModifierGroup>> {
      const afterId = afterIdOf(query.cursor)
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read(async (q) => {
        const rows = await repo.listGroups(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          productId: query.product_id,
          limit: query.limit + 1,
        })
        return pageWithChildren(
          rows,
          query.limit,
          (ids) => repo.optionsOf(q, ctx.orgId, ids),
          (r, options) => toGroup(r, options, currency),
        )
      })
    },

    async get(ctx: RequestContext, id: string): Promise<ModifierGroup> {
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read((q) => load(ctx, q, id, currency))
    },

    async create(ctx: RequestContext, input: CreateGroupBody): Promise<ModifierGroup> {
      const currency = await orgs.currencyOf(ctx)
      const name = input.name.trim()
      if (!name) throw invalid('name', 'must not be blank', 'required')
      const min = input.min_selections ?? 0
      const max = input.max_selections === undefined ? null : input.max_selections
      checkBounds(min, max)
      const options = (input.options ?? []).map((o, i) => optionWrite(o, currency, `options.${i}.`))
      return ctx.db.tx(async (q) => {
        const row = await repo.insertGroup(q, ctx.orgId, newId('modg'), {
          name,
          required: input.required ?? false,
          minSelections: min,
          maxSelections: max,
        })
        for (const o of options) {
          await repo.insertOption(q, ctx.orgId, row.id, newId('modo'), {
            name: o.name!,
            priceAdjustment: o.priceAdjustment ?? 0n,
            isDefault: o.isDefault ?? false,
          })
        }
        return load(ctx, q, row.id, currency)
      })
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: GroupInput,
      expectedVersion: number | undefined,
    ): Promise<ModifierGroup> {
      const currency = await orgs.currencyOf(ctx)
      const name = input.name?.trim()
      if (name === '') throw invalid('name', 'must not be blank', 'required')
      return ctx.db.tx(async (q) => {
        const [current] = await repo.groupsByIds(q, ctx.orgId, [id])
        if (!current) throw notFound('modifier group')
        checkBounds(
          input.min_selections ?? current.min_selections,
          input.max_selections === undefined ? current.max_selections : input.max_selections,
        )
        const write = {
          name,
          required: input.required,
          minSelections: input.min_selections,
          maxSelections: input.max_selections,
        }
        const updated = await repo.updateGroup(q, ctx.orgId, id, write, expectedVersion)
        if (!updated) throw staleVersion(current.version)
        return load(ctx, q, id, currency)
      })
    },

    /** Deletes the group, its options and its attachments to products; past orders keep their copied names. */
    async remove(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<void> {
      await removeVersioned(ctx, 'modifier_groups', 'modifier group', id, expectedVersion)
    },

    async addOption(ctx: RequestContext, groupId: string, input: CreateOptionBody): Promise<ModifierOption> {
      const currency = await orgs.currencyOf(ctx)
      const o = optionWrite(input, currency, '')
      if (!o.name) throw invalid('name', 'must not be blank', 'required')
      const row = await ctx.db.tx(async (q) => {
        if ((await repo.groupsByIds(q, ctx.orgId, [groupId])).length === 0) throw notFound('modifier group')
        const inserted = await repo.insertOption(q, ctx.orgId, groupId, newId('modo'), {
          name: o.name!,
          priceAdjustment: o.priceAdjustment ?? 0n,
          isDefault: o.isDefault ?? false,
        })
        await repo.touchGroup(q, ctx.orgId, groupId)
        return inserted
      })
      return toOption(row, currency)
    },

    async updateOption(
      ctx: RequestContext,
      groupId: string,
      optionId: string,
      input: OptionInput,
      expectedVersion: number | undefined,
    ): Promise<ModifierOption> {
      const currency = await orgs.currencyOf(ctx)
      const write = optionWrite(input, currency, '')
      const row = await ctx.db.tx(async (q) => {
        const updated = await repo.updateOption(q, ctx.orgId, groupId, optionId, write, expectedVersion)
        if (!updated) return optionMissingOrStale(ctx, q, groupId, optionId)
        await repo.touchGroup(q, ctx.orgId, groupId)
        return updated
      })
      return toOption(row, currency)
    },

    async removeOption(
      ctx: RequestContext,
      groupId: string,
      optionId: string,
      expectedVersion: number | undefined,
    ): Promise<void> {
      await ctx.db.tx(async (q) => {
        if (await repo.deleteOption(q, ctx.orgId, groupId, optionId, expectedVersion)) {
          await repo.touchGroup(q, ctx.orgId, groupId)
          return
        }
        await optionMissingOrStale(ctx, q, groupId, optionId)
      })
    },

    /** Replaces the groups a product offers (in the given order) and returns them. */
    async setProductGroups(
      ctx: RequestContext,
      productId: string,
      groupIds: readonly string[],
    ): Promise<ModifierGroup[]> {
      const currency = await orgs.currencyOf(ctx)
      const seen = new Set<string>()
      groupIds.forEach((id, i) => {
        if (seen.has(id)) throw invalid(`modifier_group_ids.${i}`, 'names a group twice', 'duplicate')
        seen.add(id)
      })
      return ctx.db.tx(async (q) => {
        if (!(await catalogRepo.productFlags(q, ctx.orgId, [productId])).has(productId)) throw notFound('product')
        const rows = groupIds.length ? await repo.groupsByIds(q, ctx.orgId, groupIds) : []
        const byId = new Map(rows.map((r) => [r.id, r]))
        groupIds.forEach((id, i) => {
          if (!byId.has(id))
            throw invalid(`modifier_group_ids.${i}`, 'does not name a modifier group of this org', 'not_found')
        })
        await repo.setProductGroups(q, ctx.orgId, productId, groupIds)
        return groupsWithOptions(
          ctx,
          q,
          groupIds.map((id) => byId.get(id)!),
          currency,
        )
      })
    },

    async productGroups(ctx: RequestContext, productId: string): Promise<ModifierGroup[]> {
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read(async (q) => {
        if (!(await catalogRepo.productFlags(q, ctx.orgId, [productId])).has(productId)) throw notFound('product')
        const ids = await repo.productGroupIds(q, ctx.orgId, productId)
        const byId = new Map((ids.length ? await repo.groupsByIds(q, ctx.orgId, ids) : []).map((r) => [r.id, r]))
        return groupsWithOptions(
          ctx,
          q,
          ids.map((id) => byId.get(id)!),
          currency,
        )
      })
    },
  }
}

export type ModifiersService = ReturnType<typeof createModifiersService>
