import { invalid } from '../../platform/errors/app-error.ts'
import { divRoundHalfUp, toMinor } from '../../platform/money/money.ts'
import { PERCENT_E4, percentToE4 } from '../../platform/money/percent.ts'
import { assertTipsTaken, assertWithinCap } from '../../platform/money/tips.ts'
import type { TipInput } from './orders.schemas.ts'
import type { OrgSettingsPort } from './ports.ts'
import type { OrderTotals } from './totals.ts'

type TipSettings = Awaited<ReturnType<OrgSettingsPort['pricingSettings']>>['tips']

/**
 * The tip an order asks for, in minor units (docs/commerce.md "Tips"): an amount, or a percentage of the total
 * before tax (the total less its tax, whether prices include it or not) or after it, rounded half-up; at most the
 * store's cap, and only when the store takes tips. It is added to the total after pricing, so campaigns and order
 * discounts never reach it, tax is never computed on it and loyalty points (earned on the lines) never count it.
 */
export function tipOf(input: TipInput | undefined, totals: OrderTotals, settings: TipSettings, currency: string) {
  if (!input) return 0n
  assertTipsTaken(settings.enabled)
  let amount: bigint
  let field: string
  if (input.amount !== undefined) {
    field = 'tip.amount'
    amount = toMinor(input.amount, currency, field)
  } else {
    field = 'tip.percentage'
    const e4 = percentToE4(input.percentage ?? 0)
    if (e4 === null) throw invalid(field, 'must have at most 4 decimals', 'too_precise')
    const base = settings.base === 'after_tax' ? totals.total : totals.total - totals.taxTotal
    amount = divRoundHalfUp(base * BigInt(e4), PERCENT_E4)
  }
  assertWithinCap(amount, totals.total, settings.max_percent, field)
  return amount
}
