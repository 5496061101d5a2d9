import { KeptUnderCatalogVersion } from '../../platform/cache/index.ts'
import { newId } from '../../platform/crypto/ids.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { e4ToPercent, percentToE4 } from '../../platform/money/percent.ts'
import { changedFields, recordAudit } from '../audit/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import * as repo from './tax.repo.ts'
import type { CreateTaxRateBody, TaxRate, TaxRateListQuery, UpdateTaxRateBody } from './tax.schemas.ts'
import type { TaxRateRow } from './tax.tables.ts'

/** The fields a create or update sets. */
type TaxRateInput = Omit<UpdateTaxRateBody, 'version'>

/** What a line needs to find its rates. */
interface TaxableItem {
  productId: string
  categoryId: string | null
}

function toTaxRate(row: TaxRateRow, inclusive: boolean): TaxRate {
  return {
    id: row.id,
    name: row.name,
    rate: e4ToPercent(row.rate_e4),
    applies_to: row.applies_to,
    category_ids: row.category_ids,
    product_ids: row.product_ids,
    inclusive,
    is_active: row.is_active,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function appliesTo(rate: TaxRateRow, item: TaxableItem): boolean {
  if (rate.applies_to === 'all') return true
  if (rate.applies_to === 'products') return rate.product_ids.includes(item.productId)
  return item.categoryId !== null && rate.category_ids.includes(item.categoryId)
}

const unique = (ids: string[] | undefined) => (ids === undefined ? undefined : [...new Set(ids)])

function toWrite(input: TaxRateInput): repo.TaxRateWrite {
  let rateE4: number | undefined
  if (input.rate !== undefined) {
    const e4 = percentToE4(input.rate)
    if (e4 === null) throw invalid('rate', 'must be a percentage with at most 4 decimal places', 'too_precise')
    rateE4 = e4
  }
  const name = input.name?.trim()
  if (name === '') throw invalid('name', 'must not be blank', 'required')
  return {
    name,
    rateE4,
    appliesTo: input.applies_to,
    categoryIds: unique(input.category_ids),
    productIds: unique(input.product_ids),
    isActive: input.is_active,
  }
}

/** A rate limited to categories or products must name at least one, or it would silently tax nothing. */
function checkTargets(row: Pick<TaxRateRow, 'applies_to' | 'category_ids' | 'product_ids'>): void {
  if (row.applies_to === 'categories' && row.category_ids.length === 0) {
    throw invalid('category_ids', 'must name at least one category when applies_to is categories', 'required')
  }
  if (row.applies_to === 'products' && row.product_ids.length === 0) {
    throw invalid('product_ids', 'must name at least one product when applies_to is products', 'required')
  }
}

/** Orgs whose active rates are kept per process. */
const RATE_CACHE_ENTRIES = 10_000

/** What the audit log records of a tax rate's change (docs/people-and-settings.md "Audit log"). */
const AUDITED_TAX_FIELDS = ['name', 'rate', 'applies_to', 'category_ids', 'product_ids', 'is_active'] as const

export function createTaxService(orgs: OrgsService) {
  // Filed under the catalog version, which tax writes move on like catalog writes (tax.routes.ts).
  const activeRates = new KeptUnderCatalogVersion<TaxRateRow[]>(RATE_CACHE_ENTRIES)
  // The setting orders price with, from the same kept source.
  const inclusive = async (ctx: RequestContext) => (await orgs.pricingSettings(ctx)).prices_include_tax

  return {
    async list(ctx: RequestContext, query: TaxRateListQuery): Promise<Page<TaxRate>> {
      const afterId = afterIdOf(query.cursor)
      const inc = await inclusive(ctx)
      const rows = await ctx.db.read((q) => repo.listTaxRates(q, ctx.orgId, afterId ?? null, query.limit + 1))
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toTaxRate(r, inc),
      )
    },

    async create(ctx: RequestContext, input: CreateTaxRateBody): Promise<TaxRate> {
      const w = toWrite(input)
      const full: Required<repo.TaxRateWrite> = {
        name: w.name!,
        rateE4: w.rateE4!,
        appliesTo: w.appliesTo ?? 'all',
        categoryIds: w.categoryIds ?? [],
        productIds: w.productIds ?? [],
        isActive: w.isActive ?? true,
      }
      checkTargets({ applies_to: full.appliesTo, category_ids: full.categoryIds, product_ids: full.productIds })
      const inc = await inclusive(ctx)
      const row = await ctx.db.tx(async (q) => {
        const created = await repo.insertTaxRate(q, ctx.orgId, newId('tax'), full)
        const { rate, applies_to, is_active } = toTaxRate(created, inc)
        await recordAudit(q, ctx, {
          action: 'tax_rate.created',
          record: { type: 'tax_rate', id: created.id },
          changes: { rate, applies_to, is_active },
        })
        return created
      })
      return toTaxRate(row, inc)
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: TaxRateInput,
      expectedVersion: number | undefined,
    ): Promise<TaxRate> {
      const w = toWrite(input)
      const inc = await inclusive(ctx)
      const row = await ctx.db.tx(async (q) => {
        const before = await repo.taxRateById(q, ctx.orgId, id)
        if (!before) throw notFound('tax rate')
        const updated = await repo.updateTaxRate(q, ctx.orgId, id, w, expectedVersion)
        if (!updated) throw staleVersion(before.version)
        // Checked after the update, inside the transaction: a failure rolls it back.
        checkTargets(updated)
        await recordAudit(q, ctx, {
          action: 'tax_rate.updated',
          record: { type: 'tax_rate', id },
          changes: changedFields(toTaxRate(before, inc), toTaxRate(updated, inc), AUDITED_TAX_FIELDS),
        })
        return updated
      })
      return toTaxRate(row, inc)
    },

    async get(ctx: RequestContext, id: string): Promise<TaxRate> {
      const inc = await inclusive(ctx)
      const row = await ctx.db.read((q) => repo.taxRateById(q, ctx.orgId, id))
      if (!row) throw notFound('tax rate')
      return toTaxRate(row, inc)
    },

    /**
     * The org's active rates as a function giving each item its summed rate (percent x 10,000), in order. It needs
     * no items to read, so an order can fetch it beside the catalog quote.
     */
    async rateTable(ctx: RequestContext): Promise<(items: readonly TaxableItem[]) => number[]> {
      const rates = await activeRates.through(ctx, () => ctx.db.read((q) => repo.activeTaxRates(q, ctx.orgId)))
      return (items) =>
        items.map((item) => rates.filter((r) => appliesTo(r, item)).reduce((sum, r) => sum + r.rate_e4, 0))
    },
  }
}

export type TaxService = ReturnType<typeof createTaxService>
