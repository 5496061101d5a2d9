import { invalid } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import * as repo from './pricing.repo.ts'
import { bestMarkdown, chooseOptions, type MarkdownRule, pickListPrice } from './pricing.rules.ts'

export interface QuoteLineInput {
  productId: string
  variantId?: string | null
  quantity: number
  /** Omit for the groups' default options; an explicit list (even empty) is taken as given. */
  modifierOptionIds?: string[]
}

export interface QuotedModifier {
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
   * Only on a bundle: what selling the line draws down, read in the same statement as the price so an order's
   * stock change needs no second catalog look-up. Absent for a plain product (the quote looked and found none).
   */
  components?: { productId: string; variantId: string | null; quantity: number }[]
}

export interface QuoteAt {
  locationId?: string | null
  at?: Date
}

const unique = <T>(values: Iterable<T>) => [...new Set(values)]

/** `{ components }` for a bundle product, nothing for a plain one. */
function bundleOf(rows: repo.QuoteData['components'], productId: string): Pick<QuotedLine, 'components'> {
  const parts = rows.filter((c) => c.bundle_product_id === productId)
  if (parts.length === 0) return {}
  return { components: parts.map((c) => ({ productId: c.product_id, variantId: c.variant_id, quantity: c.quantity })) }
}

export function createPricingService() {
  return {
    /**
     * Resolves what each line costs at `at.at` (default now) and `at.locationId`, reading through the caller's open
     * transaction when there is one. Bad lines are a 422 naming `lines.<i>.product_id`, `.variant_id`,
     * `.quantity` or `.modifiers`.
     */
    async quote(ctx: RequestContext, lines: readonly QuoteLineInput[], at: QuoteAt = {}): Promise<QuotedLine[]> {
      const when = at.at ?? new Date()
      const locationId = at.locationId ?? null
      lines.forEach((line, i) => {
        if (!Number.isInteger(line.quantity) || line.quantity < 1)
          throw invalid(`lines.${i}.quantity`, 'must be a positive integer', 'out_of_range')
      })
      const productIds = unique(lines.map((l) => l.productId))
      const variantIds = unique(lines.flatMap((l) => (l.variantId ? [l.variantId] : [])))

      const raw = await ctx.db.read((q) => repo.quoteData(q, ctx.orgId, productIds, variantIds, locationId, when))
      const data = {
        ...raw,
        products: new Map(raw.products.map((p) => [p.id, p])),
        variants: new Map(raw.variants.map((v) => [v.id, v])),
      }

      const entries = data.prices.map((e) => ({
        priceListId: e.price_list_id,
        locationId: e.location_id,
        productId: e.product_id,
        variantId: e.variant_id,
        price: BigInt(e.price),
      }))
      const options = data.options.map((o) => ({
        id: o.id,
        groupId: o.group_id,
        isDefault: o.is_default,
        name: o.name,
        priceAdjustment: BigInt(o.price_adjustment),
      }))

      return lines.map((line, i) => {
        const product = data.products.get(line.productId)
        if (!product?.is_active) {
          throw invalid(`lines.${i}.product_id`, 'does not name an active product of this org', 'not_found')
        }
        let variant: repo.QuoteVariantRow | undefined
        if (line.variantId) {
          variant = data.variants.get(line.variantId)
          if (!variant || variant.product_id !== product.id || !variant.is_active) {
            throw invalid(`lines.${i}.variant_id`, 'does not name an active variant of this product', 'not_found')
          }
        }
        const groups = data.groups
          .filter((g) => g.product_id === product.id)
          .map((g) => ({
            id: g.id,
            name: g.name,
            required: g.required,
            minSelections: g.min_selections,
            maxSelections: g.max_selections,
          }))
        const picked = chooseOptions(`lines.${i}.modifiers`, groups, options, line.modifierOptionIds)

        const basePrice = variant?.price != null ? BigInt(variant.price) : BigInt(product.base_price)
        const listed = pickListPrice(entries, product.id, variant?.id ?? null)
        const afterList = listed?.price ?? basePrice
        const categories = new Set(data.ancestry.filter((a) => a.start_id === product.category_id).map((a) => a.id))
        const candidates: MarkdownRule[] = data.markdowns
          .filter((m) => m.product_id === product.id || (m.category_id !== null && categories.has(m.category_id)))
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
          ...bundleOf(data.components, product.id),
          modifiers: picked.map((o) => {
            const full = options.find((x) => x.id === o.id)!
            return { id: full.id, groupId: full.groupId, name: full.name, priceAdjustment: full.priceAdjustment }
          }),
        }
      })
    },
  }
}

export type PricingService = ReturnType<typeof createPricingService>
