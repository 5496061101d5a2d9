import { invalid } from '../../platform/errors/app-error.ts'
import { toMajor, toMinor } from '../../platform/money/money.ts'
import { e4ToPercent, percentToE4 } from '../../platform/money/percent.ts'
import type { CampaignPricing } from '../campaigns/index.ts'
import { OrderErrors } from './orders.errors.ts'
import type { DiscountInput, OrderLineInput, TipInput } from './orders.schemas.ts'
import { type CampaignDiscountFields, discountView, lineDiscountView, type StoredDiscount } from './orders.views.ts'
import type { CampaignsPort, OrgSettingsPort, QuotedLine, TaxPort } from './ports.ts'
import { tipOf } from './tips.ts'
import { computeTotals, type OrderDiscount, type OrderTotals } from './totals.ts'

export interface PricedOrder {
  currency: string
  pricesIncludeTax: boolean
  quoted: QuotedLine[]
  notes: string[]
  /** Unit price with modifiers, per line. */
  unitPrices: bigint[]
  rates: number[]
  totals: OrderTotals
  /** The order-level discounts the till asked for, as stored. */
  discounts: StoredDiscount[]
  /** The campaigns that applied (each rule's amount per line) and those that did not, with why. */
  campaigns: CampaignPricing
  /** The tip asked for, in minor units: added to the total, outside everything above. */
  tip: bigint
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

/** The most vouchers an order presents, voucher_codes and voucher_code together (voucher_codes' own maximum). */
const MAX_VOUCHERS = 10

/** What pricing an order reads from other modules (flows/price-sale.ts reads them at once). */
export interface PricingReads {
  org: Awaited<ReturnType<OrgSettingsPort['pricingSettings']>>
  quoted: QuotedLine[]
  taxOf: Awaited<ReturnType<TaxPort['rateTable']>>
  campaignsFor: Awaited<ReturnType<CampaignsPort['prepare']>>
}

/** The lines, discounts, vouchers and tip an order or a lay-by is priced from. */
export interface PricingInput {
  location_id: string
  customer_id?: string | null
  lines: readonly OrderLineInput[]
  discounts?: readonly DiscountInput[]
  voucher_codes?: readonly string[]
  voucher_code?: string
  tip?: TipInput
}

/**
 * The vouchers an order presents, each with the field that names it in a refusal: voucher_codes, then voucher_code
 * (one more code, named by its own field).
 */
export function presentedVouchers(input: PricingInput): { codes: string[]; fields: string[] } {
  const codes = [...(input.voucher_codes ?? []), ...(input.voucher_code ? [input.voucher_code] : [])]
  if (codes.length > MAX_VOUCHERS)
    throw invalid('voucher_code', `makes more than ${MAX_VOUCHERS} vouchers with voucher_codes`, 'out_of_range')
  const fields = [
    ...(input.voucher_codes ?? []).map((_, i) => `voucher_codes.${i}`),
    ...(input.voucher_code ? ['voucher_code'] : []),
  ]
  return { codes, fields }
}

/**
 * The heart of calculate and create: from the catalog's quote, the tax rates and the campaigns that may apply, the
 * unit prices, each campaign's discount, the totals and the tip.
 */
export function priceFrom(reads: PricingReads, input: PricingInput): PricedOrder {
  const { org, quoted, taxOf, campaignsFor } = reads
  refuseSoldOut(quoted)
  const discounts = parseDiscounts(input.discounts ?? [], org.currency)
  const rates = taxOf(quoted)
  const unitPrices = quoted.map((q) => q.unitPrice + q.modifiers.reduce((a, m) => a + m.priceAdjustment, 0n))
  unitPrices.forEach((p, i) => {
    if (p < 0n) throw invalid(`lines.${i}.modifier_option_ids`, 'make the unit price negative', 'out_of_range')
  })
  const campaigns = campaignsFor(
    quoted.map((q, i) => ({
      productId: q.productId,
      categoryId: q.categoryId,
      unitPrice: unitPrices[i],
      quantity: q.quantity,
    })),
    org.currency,
  )
  const campaignOff = quoted.map((_, i) => campaigns.applications.reduce((a, c) => a + c.perLine[i], 0n))
  const totals = computeTotals(
    quoted.map((q, i) => ({
      unitPrice: unitPrices[i],
      quantity: q.quantity,
      taxRateE4: rates[i],
      campaignDiscount: campaignOff[i],
    })),
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
    campaigns,
    tip: tipOf(input.tip, totals, org.tips, org.currency),
  }
}

/** An item sold out ("86") at the sale's location is refused whatever its stock: a 409 naming its line. */
function refuseSoldOut(quoted: readonly QuotedLine[]): void {
  const errors = quoted.flatMap((q, i) =>
    q.soldOut
      ? [{ field: `lines.${i}.product_id`, message: `${q.name} is sold out at this location`, code: 'sold_out' }]
      : [],
  )
  if (errors.length) throw OrderErrors.ITEM_SOLD_OUT(errors.map((e) => e.message).join('; '), { errors })
}

/** A voucher the customer presented that is used up: the till was quoted a price the order cannot have. */
export function refuseUsedUpVouchers(priced: PricedOrder): void {
  const usedUp = priced.campaigns.skipped.find(
    (s) => s.code === 'voucher_used_up' && priced.campaigns.presented.some((v) => v.campaignId === s.campaignId),
  )
  if (usedUp) throw OrderErrors.VOUCHER_USED_UP(`the voucher of ${usedUp.name} is used up`)
}

/**
 * The order's stored discounts: each campaign rule that applied, with what it took off each line (by line id),
 * then the till's own order-level discounts.
 */
export function storedDiscounts(p: PricedOrder, lineIds: readonly string[]): StoredDiscount[] {
  const fromCampaigns: StoredDiscount[] = p.campaigns.applications.map((a) => ({
    ...campaignDiscount(a),
    lines: a.perLine.flatMap((amount, i) => (amount > 0n ? [{ line_id: lineIds[i], amount: amount.toString() }] : [])),
  }))
  return [...fromCampaigns, ...p.discounts]
}

/** A campaign rule that applied, as an order discount without its lines (which name the stored order's lines). */
function campaignDiscount(a: PricedOrder['campaigns']['applications'][number]): CampaignDiscountFields {
  return {
    type: 'campaign',
    campaign_id: a.campaignId,
    rule_id: a.ruleId,
    rule_type: a.ruleType,
    name: a.name,
    voucher_code: a.voucher?.code ?? null,
    amount: a.amount.toString(),
    ...(a.pointsMultiplierE4 ? { points_multiplier_e4: a.pointsMultiplierE4.toString() } : {}),
  }
}

/** What each line's campaigns took off it, by line: one pass over the applications rather than one per line. */
function lineDiscountsOf(p: PricedOrder): ReturnType<typeof lineDiscountView>[][] {
  const perLine = p.quoted.map((): ReturnType<typeof lineDiscountView>[] => [])
  for (const a of p.campaigns.applications)
    a.perLine.forEach((amount, i) => {
      if (amount > 0n) perLine[i].push(lineDiscountView(a.campaignId, a.ruleId, a.name, amount, p.currency))
    })
  return perLine
}

/** The answer of POST /orders/calculate. */
export function toCalculation(p: PricedOrder, explain: 'relevant' | 'all' = 'all') {
  const c = p.currency
  const lineDiscounts = lineDiscountsOf(p)
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
      discounts: lineDiscounts[i],
    })),
    discounts: [
      ...p.campaigns.applications.map((a) => discountView(campaignDiscount(a), c)),
      ...p.discounts.map((d) => discountView(d, c)),
    ],
    campaigns: {
      applied: p.campaigns.applications.map((a) => ({
        campaign_id: a.campaignId,
        rule_id: a.ruleId,
        rule_type: a.ruleType,
        name: a.name,
        voucher_code: a.voucher?.code ?? null,
        amount: toMajor(a.amount, c),
      })),
      // A campaign for products the order does not have is noise to a till, and most of the answer's bytes.
      not_applied: p.campaigns.skipped
        .filter((s) => explain === 'all' || s.code !== 'no_eligible_items')
        .map((s) => ({
          campaign_id: s.campaignId,
          name: s.name,
          code: s.code,
          reason: s.reason,
        })),
    },
    subtotal: toMajor(p.totals.subtotal, c),
    discount_total: toMajor(p.totals.discountTotal, c),
    tax_total: toMajor(p.totals.taxTotal, c),
    tip: toMajor(p.tip, c),
    total: toMajor(p.totals.total + p.tip, c),
  }
}

/** The till's own order discounts as a share of the subtotal, in percent to four decimals (the approval limit's unit). */
export function ownDiscountPercent(p: PricedOrder): number {
  const taken = p.discounts.reduce((sum, d) => sum + BigInt(d.amount), 0n)
  return p.totals.subtotal > 0n ? Number((taken * 1_000_000n) / p.totals.subtotal) / 10_000 : 0
}

/**
 * The stock moves of priced lines, `sign` units per unit sold (-1 takes, 1 gives back): items nobody counts move
 * none, and a bundle carries the components its quote read, so inventory need not look again.
 */
export function stockChangesOf(
  quoted: readonly QuotedLine[],
  o: {
    locationId: string
    sign: 1 | -1
    reason: 'sale' | 'layby_reserve' | 'layby_release'
    reference: { type: string; id: string }
    fieldPrefix?: string
    occurredAt?: Date
  },
) {
  return quoted.flatMap((l, i) =>
    l.tracked
      ? [
          {
            productId: l.productId,
            variantId: l.variantId,
            locationId: o.locationId,
            quantity: o.sign * l.quantity,
            reason: o.reason,
            reference: o.reference,
            field: `${o.fieldPrefix ?? ''}lines.${i}`,
            components: l.components ?? [],
            ...(o.occurredAt ? { occurredAt: o.occurredAt } : {}),
          },
        ]
      : [],
  )
}
