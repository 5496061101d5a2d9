import { invalid } from '../../../platform/errors/app-error.ts'
import { divRoundHalfUp } from '../../../platform/money/money.ts'
import { PERCENT_E4 } from '../../../platform/money/percent.ts'

/** Pure pricing rules, kept apart from the queries so each reads as the documented rule (docs/catalog.md). */

interface PriceEntry {
  priceListId: string
  locationId: string | null
  productId: string
  variantId: string | null
  price: bigint
}

/**
 * The price list price of one line, or null when no list prices it. Within a list a variant's own entry beats
 * the list's product-wide entry. Across lists, a location-specific list beats an org-wide one; among lists of the
 * same kind the lowest price wins, and on a tie the oldest list (smallest id).
 */
export function pickListPrice(
  entries: readonly PriceEntry[],
  productId: string,
  variantId: string | null,
): { priceListId: string; price: bigint } | null {
  const perList = new Map<string, PriceEntry>()
  for (const e of entries) {
    if (e.productId !== productId) continue
    if (e.variantId !== null && e.variantId !== variantId) continue
    const seen = perList.get(e.priceListId)
    if (!seen || (seen.variantId === null && e.variantId !== null)) perList.set(e.priceListId, e)
  }
  let best: PriceEntry | null = null
  for (const e of perList.values()) {
    if (!best) {
      best = e
      continue
    }
    const eLocal = e.locationId !== null
    const bestLocal = best.locationId !== null
    if (eLocal !== bestLocal) {
      if (eLocal) best = e
      continue
    }
    if (e.price < best.price || (e.price === best.price && e.priceListId < best.priceListId)) best = e
  }
  return best ? { priceListId: best.priceListId, price: best.price } : null
}

export interface MarkdownRule {
  id: string
  kind: 'percentage' | 'amount'
  /** Hundredths of a percent for a percentage, minor units for an amount. */
  value: bigint
}

/** What a markdown takes off `price`: percentages rounded half-up to the minor unit, never more than the price. */
function discountOf(price: bigint, m: MarkdownRule): bigint {
  const off = m.kind === 'percentage' ? divRoundHalfUp(price * m.value, PERCENT_E4) : m.value
  return off > price ? price : off
}

/** The markdown that takes the most off `price` (the oldest on a tie), or null when none takes anything. */
export function bestMarkdown(
  price: bigint,
  candidates: readonly MarkdownRule[],
): { markdownId: string; price: bigint } | null {
  let best: { id: string; off: bigint } | null = null
  for (const m of candidates) {
    const off = discountOf(price, m)
    if (off <= 0n) continue
    if (!best || off > best.off || (off === best.off && m.id < best.id)) best = { id: m.id, off }
  }
  return best ? { markdownId: best.id, price: price - best.off } : null
}

interface GroupRule {
  id: string
  name: string
  required: boolean
  minSelections: number
  maxSelections: number | null
}

interface OptionRule {
  id: string
  groupId: string
  isDefault: boolean
}

/**
 * The options a line takes. Omitted (undefined) choices mean "the defaults"; an explicit list, even empty, is taken
 * as given. Every chosen option must belong to a group attached to the product, at most once, and each group's
 * count must lie between its minimum (at least 1 when required) and its maximum.
 */
export function chooseOptions(
  field: string,
  groups: readonly GroupRule[],
  options: readonly OptionRule[],
  chosen: readonly string[] | undefined,
): OptionRule[] {
  const attached = new Map(options.filter((o) => groups.some((g) => g.id === o.groupId)).map((o) => [o.id, o]))
  const picked =
    chosen === undefined
      ? [...attached.values()].filter((o) => o.isDefault)
      : chosen.map((id) => {
          const option = attached.get(id)
          if (!option) throw invalid(field, `option ${id} is not offered for this product`, 'unknown_option')
          return option
        })
  if (new Set(picked.map((o) => o.id)).size !== picked.length)
    throw invalid(field, 'names an option more than once', 'duplicate')
  for (const g of groups) {
    const count = picked.filter((o) => o.groupId === g.id).length
    const min = Math.max(g.minSelections, g.required ? 1 : 0)
    if (count < min) throw invalid(field, `group "${g.name}" needs at least ${min} selection(s)`, 'too_few_selections')
    if (g.maxSelections !== null && count > g.maxSelections) {
      throw invalid(field, `group "${g.name}" allows at most ${g.maxSelections} selection(s)`, 'too_many_selections')
    }
  }
  return picked
}
