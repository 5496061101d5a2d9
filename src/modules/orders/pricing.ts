import { invalid } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { toMajor, toMinor } from '../../platform/money/money.ts'
import type { StoredDiscount } from './orders.views.ts'
import type { OrgSettingsPort, PricingPort, QuotedLine, TaxPort } from './ports.ts'
import { computeTotals, e4ToPercent, type OrderDiscount, type OrderTotals, percentToE4 } from './totals.ts'

export interface LineInput {
  product_id: string
  variant_id?: string | null
  quantity: number
  modifier_option_ids?: string[]
  note?: string
}

export interface DiscountInput {
  type: 'amount' | 'percentage'
  value: number
  reason: string
}

export interface PricedOrder {
  currency: string
  pricesIncludeTax: boolean
  quoted: QuotedLine[]
  notes: string[]
  /** Unit price with modifiers, per line. */
  unitPrices: bigint[]
  rates: number[]
  totals: OrderTotals
  discounts: StoredDiscount[]
}

export function parseDiscounts(inputs: readonly DiscountInput[], currency: string): OrderDiscount[] {
  return inputs.map((d, i) => {
    if (d.type === 'amount') return { type: 'amount', amount: toMinor(d.value, currency, `discounts.${i}.value`) }
    const e4 = percentToE4(d.value)
    if (e4 === null || e4 > 1_000_000)
      throw invalid(`discounts.${i}.value`, 'must be a percentage up to 100 with at most 4 decimals', 'out_of_range')
    return { type: 'percentage', percentE4: e4 }
  })
}

/**
 * Prices lines through the catalog, finds their tax rates and computes the totals: the heart of calculate and
 * create. The org, the quote and the tax rates are read at once: on a pipelined connection, one round trip.
 */
export async function priceOrder(
  ctx: RequestContext,
  deps: { orgs: OrgSettingsPort; pricing: PricingPort; tax: TaxPort },
  input: { location_id: string; lines: readonly LineInput[]; discounts?: readonly DiscountInput[] },
): Promise<PricedOrder> {
  const [org, quoted, taxOf] = await Promise.all([
    deps.orgs.pricingSettings(ctx),
    deps.pricing.quote(
      ctx,
      input.lines.map((l) => ({
        productId: l.product_id,
        variantId: l.variant_id ?? null,
        quantity: l.quantity,
        modifierOptionIds: l.modifier_option_ids,
      })),
      { locationId: input.location_id, at: new Date() },
    ),
    deps.tax.rateTable(ctx),
  ])
  const discounts = parseDiscounts(input.discounts ?? [], org.currency)
  const rates = taxOf(quoted)
  const unitPrices = quoted.map((q) => q.unitPrice + q.modifiers.reduce((a, m) => a + m.priceAdjustment, 0n))
  unitPrices.forEach((p, i) => {
    if (p < 0n) throw invalid(`lines.${i}.modifier_option_ids`, 'make the unit price negative', 'out_of_range')
  })
  const totals = computeTotals(
    quoted.map((q, i) => ({ unitPrice: unitPrices[i], quantity: q.quantity, taxRateE4: rates[i] })),
    discounts,
    org.prices_include_tax,
  )
  return {
    currency: org.currency,
    pricesIncludeTax: org.prices_include_tax,
    quoted,
    notes: input.lines.map((l) => l.note ?? ''),
    unitPrices,
    rates,
    totals,
    discounts: (input.discounts ?? []).map((d, i) => ({
      type: d.type,
      value: d.value,
      reason: d.reason,
      amount: totals.discountAmounts[i].toString(),
    })),
  }
}

/** The answer of POST /orders/calculate. */
export function toCalculation(p: PricedOrder) {
  const c = p.currency
  return {
    currency: c,
    prices_include_tax: p.pricesIncludeTax,
    lines: p.quoted.map((q, i) => ({
      product_id: q.productId,
      variant_id: q.variantId,
      name: q.name,
      quantity: q.quantity,
      base_price: toMajor(q.basePrice, c),
      unit_price: toMajor(p.unitPrices[i], c),
      modifiers: q.modifiers.map((m) => ({
        id: m.id,
        group_id: m.groupId,
        name: m.name,
        price_adjustment: toMajor(m.priceAdjustment, c),
      })),
      tax_rate: e4ToPercent(p.rates[i]),
      line_subtotal: toMajor(p.totals.lines[i].lineSubtotal, c),
      line_discount: toMajor(p.totals.lines[i].lineDiscount, c),
      line_tax: toMajor(p.totals.lines[i].lineTax, c),
      line_total: toMajor(p.totals.lines[i].lineTotal, c),
    })),
    discounts: p.discounts.map((d) => ({
      type: d.type,
      value: d.value,
      reason: d.reason,
      amount: toMajor(d.amount, c),
    })),
    subtotal: toMajor(p.totals.subtotal, c),
    discount_total: toMajor(p.totals.discountTotal, c),
    tax_total: toMajor(p.totals.taxTotal, c),
    total: toMajor(p.totals.total, c),
  }
}
