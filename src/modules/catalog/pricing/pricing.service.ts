import { KeptUnderCatalogVersion } from '../../../platform/cache/index.ts'
import { invalid } from '../../../platform/errors/app-error.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import type { BundleComponent } from '../bundles/bundles.service.ts'
import * as repo from './pricing.repo.ts'
import { bestMarkdown, chooseOptions, type MarkdownRule, pickListPrice } from './pricing.rules.ts'
import type { QuoteData, QuoteVariantRow, ValidityWindow } from './pricing.tables.ts'

interface QuoteLineInput {
  productId: string
  variantId?: string | null
  quantity: number
  /** Omit for the groups' default options; an explicit list (even empty) is taken as given. */
  modifierOptionIds?: string[]
}

interface QuotedModifier {
  id: string
  groupId: string
  name: string
  priceAdjustment: bigint
}

/**
 * What one order line costs now, in minor units of the org currency. `unitPrice` is the price after the price list
 * and the markdown, without modifiers: one unit costs `unitPrice + Σ modifiers.priceAdjustment`.
 */
export interface QuotedLine {
  productId: string
  variantId: string | null
  quantity: number
  name: string
  sku: string
  categoryId: string | null
  /** The variant's own price or else the product's base price, before price list and markdown. */
  basePrice: bigint
  unitPrice: bigint
  priceListId: string | null
  markdownId: string | null
  modifiers: QuotedModifier[]
  /**
   * Only on a bundle: what selling the line draws down (its counted components), read in the same statement as the
   * price so an order's stock change needs no second catalog look-up. Absent for a plain product (the quote looked
   * and found none).
   */
  components?: BundleComponent[]
  /** Whether selling the line draws stock: false for an item nobody counts, or a bundle none of whose parts are. */
  tracked: boolean
  /** Marked sold out ("86") at the quote's location, the product or this variant. */
  soldOut: boolean
}

interface QuoteAt {
  locationId?: string | null
  at?: Date
}

const unique = <T>(values: Iterable<T>) => [...new Set(values)]

/**
 * What a line of the product draws down: a bundle its counted components (tracked while it has one), a plain product
 * or variant itself when both are counted.
 */
function stockOf(
  data: QuoteData,
  product: QuoteData['products'][number],
  variant: QuoteVariantRow | undefined,
): Pick<QuotedLine, 'components' | 'tracked'> {
  const parts = data.components.filter((c) => c.bundle_product_id === product.id)
  if (parts.length === 0) return { tracked: product.track_inventory && (variant?.track_inventory ?? true) }
  const counted = parts.filter((c) => c.tracked)
  return {
    components: counted.map((c) => ({ productId: c.product_id, variantId: c.variant_id, quantity: c.quantity })),
    tracked: counted.length > 0,
  }
}

/** One product's share of a quote read: everything its lines need at one location. */
function shareOf(raw: QuoteData, productId: string): QuoteData {
  const products = raw.products.filter((p) => p.id === productId)
  const categoryId = products[0]?.category_id ?? null
  const ancestry = raw.ancestry.filter((a) => a.start_id === categoryId)
  const categories = new Set(ancestry.map((a) => a.id))
  const groups = raw.groups.filter((g) => g.product_id === productId)
  const groupIds = new Set(groups.map((g) => g.id))
  return {
    products,
    variants: raw.variants.filter((v) => v.product_id === productId),
    groups,
    options: raw.options.filter((o) => groupIds.has(o.group_id)),
    prices: raw.prices.filter((e) => e.product_id === productId),
    ancestry,
    markdowns: raw.markdowns.filter(
      (m) => m.product_id === productId || (m.category_id !== null && categories.has(m.category_id)),
    ),
    components: raw.components.filter((c) => c.bundle_product_id === productId),
    sold_out: raw.sold_out.filter((s) => s.product_id === productId),
  }
}

const liveAt = (at: number) => (w: ValidityWindow) =>
  (w.starts_ms === null || w.starts_ms <= at) && (w.ends_ms === null || w.ends_ms > at)

/** Products' pricing data kept per process; about a kilobyte each. */
const QUOTE_CACHE_ENTRIES = 20_000

export function createPricingService() {
  // Windows are checked at each quote, so what is kept does not depend on the clock.
  const kept = new KeptUnderCatalogVersion<QuoteData>(QUOTE_CACHE_ENTRIES)

  /** Each product's quote data, from the cache or else from one read for all the missing ones. */
  async function dataOf(
    ctx: RequestContext,
    productIds: readonly string[],
    locationId: string | null,
  ): Promise<Map<string, QuoteData>> {
    const keyOf = (productId: string) => kept.keyOf(ctx, `${locationId ?? ''}|${productId}`)
    const found = new Map<string, QuoteData>()
    const missing: string[] = []
    for (const id of productIds) {
      const hit = kept.get(keyOf(id))
      if (hit) found.set(id, hit)
      else missing.push(id)
    }
    if (missing.length > 0) {
      const raw = await ctx.db.read((q) => repo.quoteData(q, ctx.orgId, missing, locationId))
      for (const id of missing) {
        const share = shareOf(raw, id)
        found.set(id, share)
        kept.set(keyOf(id), share)
      }
    }
    return found
  }

  return {
    /**
     * Resolves what each line costs at `at.at` (default now) and `at.locationId`, reading through the caller's open
     * transaction when there is one. Bad lines are a 422 naming `lines.<i>.product_id`, `.variant_id`,
     * `.quantity` or `.modifiers`.
     */
    async quote(ctx: RequestContext, lines: readonly QuoteLineInput[], at: QuoteAt = {}): Promise<QuotedLine[]> {
      const live = liveAt((at.at ?? new Date()).getTime())
      const locationId = at.locationId ?? null
      lines.forEach((line, i) => {
        if (!Number.isInteger(line.quantity) || line.quantity < 1)
          throw invalid(`lines.${i}.quantity`, 'must be a positive integer', 'out_of_range')
      })
      const byProduct = await dataOf(ctx, unique(lines.map((l) => l.productId)), locationId)

      return lines.map((line, i) => {
        const data = byProduct.get(line.productId)!
        const product = data.products[0]
        if (!product?.is_active) {
          throw invalid(`lines.${i}.product_id`, 'does not name an active product of this org', 'not_found')
        }
        let variant: QuoteVariantRow | undefined
        if (line.variantId) {
          variant = data.variants.find((v) => v.id === line.variantId)
          if (!variant?.is_active) {
            throw invalid(`lines.${i}.variant_id`, 'does not name an active variant of this product', 'not_found')
          }
        }
        const options = data.options.map((o) => ({
          id: o.id,
          groupId: o.group_id,
          isDefault: o.is_default,
          name: o.name,
          priceAdjustment: BigInt(o.price_adjustment),
        }))
        const groups = data.groups.map((g) => ({
          id: g.id,
          name: g.name,
          required: g.required,
          minSelections: g.min_selections,
          maxSelections: g.max_selections,
        }))
        const picked = chooseOptions(`lines.${i}.modifiers`, groups, options, line.modifierOptionIds)

        const basePrice = variant?.price != null ? BigInt(variant.price) : BigInt(product.base_price)
        const entries = data.prices.filter(live).map((e) => ({
          priceListId: e.price_list_id,
          locationId: e.location_id,
          productId: e.product_id,
          variantId: e.variant_id,
          price: BigInt(e.price),
        }))
        const listed = pickListPrice(entries, product.id, variant?.id ?? null)
        const afterList = listed?.price ?? basePrice
        const candidates: MarkdownRule[] = data.markdowns
          .filter(live)
          .map((m) => ({ id: m.id, kind: m.kind, value: BigInt(m.value) }))
        const marked = bestMarkdown(afterList, candidates)

        return {
          productId: product.id,
          variantId: variant?.id ?? null,
          quantity: line.quantity,
          name: variant ? `${product.name} (${variant.name})` : product.name,
          sku: variant?.sku ?? product.sku,
          categoryId: product.category_id,
          basePrice,
          unitPrice: marked?.price ?? afterList,
          priceListId: listed?.priceListId ?? null,
          markdownId: marked?.markdownId ?? null,
          ...stockOf(data, product, variant),
          soldOut: data.sold_out.some((s) => s.variant_id === '' || s.variant_id === variant?.id),
          modifiers: picked.map((o) => {
            const full = options.find((x) => x.id === o.id)!
            return { id: full.id, groupId: full.groupId, name: full.name, priceAdjustment: full.priceAdjustment }
          }),
        }
      })
    },
  }
}
