import { newId } from '../../../platform/crypto/ids.ts'
import type { Queryable } from '../../../platform/db/database.ts'
import { invalid, notFound } from '../../../platform/errors/app-error.ts'
import { staleVersion } from '../../../platform/http/concurrency.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { afterIdOf, type Page } from '../../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../../platform/money/money.ts'
import type { OrgsService } from '../../orgs/index.ts'
import * as catalogRepo from '../catalog.repo.ts'
import { pageWithChildren } from '../child-rows.ts'
import { parseWindow } from '../pricing/pricing.schemas.ts'
import { removeVersioned } from '../versioned.ts'
import * as repo from './price-lists.repo.ts'
import type {
  CreatePriceListBody,
  PriceInput,
  PriceList,
  PriceListInput,
  PriceListQuery,
} from './price-lists.schemas.ts'
import type { PriceListRow, PriceRow } from './price-lists.tables.ts'

export function toPriceList(row: PriceListRow, prices: PriceRow[], currency: string): PriceList {
  return {
    id: row.id,
    name: row.name,
    location_id: row.location_id,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    is_active: row.is_active,
    currency,
    prices: prices
      .filter((p) => p.price_list_id === row.id)
      .map((p) => ({ product_id: p.product_id, variant_id: p.variant_id, price: toMajor(p.price, currency) })),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** Every entry names a product of the org (and a variant of that product), once. */
async function checkPrices(
  ctx: RequestContext,
  q: Queryable,
  prices: readonly PriceInput[],
  currency: string,
): Promise<repo.PriceWrite[]> {
  const products = await catalogRepo.productFlags(q, ctx.orgId, [...new Set(prices.map((p) => p.product_id))])
  const variantIds = [...new Set(prices.flatMap((p) => (p.variant_id ? [p.variant_id] : [])))]
  const variants = variantIds.length ? await catalogRepo.variantOwners(q, ctx.orgId, variantIds) : new Map()
  const seen = new Set<string>()
  return prices.map((p, i) => {
    if (!products.has(p.product_id))
      throw invalid(`prices.${i}.product_id`, 'does not name a product of this org', 'not_found')
    const variantId = p.variant_id ?? null
    if (variantId !== null && variants.get(variantId)?.productId !== p.product_id) {
      throw invalid(`prices.${i}.variant_id`, 'does not name a variant of this product', 'not_found')
    }
    const key = `${p.product_id}|${variantId ?? ''}`
    if (seen.has(key)) throw invalid(`prices.${i}`, 'prices the same product or variant twice', 'duplicate')
    seen.add(key)
    return { productId: p.product_id, variantId, price: toMinor(p.price, currency, `prices.${i}.price`) }
  })
}

export function createPriceListsService(orgs: OrgsService) {
  async function load(ctx: RequestContext, q: Queryable, id: string, currency: string): Promise<PriceList> {
    const row = await repo.priceListById(q, ctx.orgId, id)
    if (!row) throw notFound('price list')
    return toPriceList(row, await repo.pricesOf(q, ctx.orgId, [id]), currency)
  }

  return {
    async list(ctx: RequestContext, query: PriceListQuery): Promise<Page<PriceList>> {
      const afterId = afterIdOf(query.cursor)
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read(async (q) => {
        const rows = await repo.listPriceLists(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          locationId: query.location_id,
          isActive: query.is_active,
          limit: query.limit + 1,
        })
        return pageWithChildren(
          rows,
          query.limit,
          (ids) => repo.pricesOf(q, ctx.orgId, ids),
          (r, prices) => toPriceList(r, prices, currency),
        )
      })
    },

    async get(ctx: RequestContext, id: string): Promise<PriceList> {
      const currency = await orgs.currencyOf(ctx)
      return ctx.db.read((q) => load(ctx, q, id, currency))
    },

    async create(ctx: RequestContext, input: CreatePriceListBody): Promise<PriceList> {
      const currency = await orgs.currencyOf(ctx)
      const name = input.name.trim()
      if (!name) throw invalid('name', 'must not be blank', 'required')
      const window = parseWindow(input)
      return ctx.db.tx(async (q) => {
        const prices = await checkPrices(ctx, q, input.prices ?? [], currency)
        const row = await repo.insertPriceList(q, ctx.orgId, newId('prl'), {
          name,
          locationId: input.location_id ?? null,
          startsAt: window.startsAt ?? null,
          endsAt: window.endsAt ?? null,
          isActive: input.is_active ?? true,
        })
        await repo.replacePrices(q, ctx.orgId, row.id, prices)
        return load(ctx, q, row.id, currency)
      })
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: PriceListInput,
      expectedVersion: number | undefined,
    ): Promise<PriceList> {
      const currency = await orgs.currencyOf(ctx)
      const name = input.name?.trim()
      if (name === '') throw invalid('name', 'must not be blank', 'required')
      return ctx.db.tx(async (q) => {
        const current = await repo.priceListById(q, ctx.orgId, id)
        if (!current) throw notFound('price list')
        const window = parseWindow(input, current)
        const prices = input.prices && (await checkPrices(ctx, q, input.prices, currency))
        const write = {
          name,
          locationId: input.location_id,
          startsAt: window.startsAt,
          endsAt: window.endsAt,
          isActive: input.is_active,
        }
        if (!(await repo.updatePriceList(q, ctx.orgId, id, write, expectedVersion))) throw staleVersion(current.version)
        if (prices) await repo.replacePrices(q, ctx.orgId, id, prices)
        return load(ctx, q, id, currency)
      })
    },

    async remove(ctx: RequestContext, id: string, expectedVersion: number | undefined): Promise<void> {
      await removeVersioned(ctx, 'price_lists', 'price list', id, expectedVersion)
    },
  }
}

export type PriceListsService = ReturnType<typeof createPriceListsService>
