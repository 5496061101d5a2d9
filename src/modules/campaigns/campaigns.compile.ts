import { invalid } from '../../platform/errors/app-error.ts'
import { toMinor, toScaled } from '../../platform/money/money.ts'
import { percentToE4 } from '../../platform/money/percent.ts'
import type { CampaignDef, CompiledConditions, CompiledRule } from './campaigns.rules.ts'
import type { Conditions, RuleInput } from './campaigns.schemas.ts'
import type { CampaignRow } from './campaigns.tables.ts'

/**
 * From the stored (API-shaped, major-unit) campaign to the engine's form in minor units. The same code validates a
 * campaign when it is saved, so a stored campaign always compiles.
 */

const setOf = (ids: readonly string[] | undefined) => (ids && ids.length > 0 ? new Set(ids) : null)
const lower = (names: readonly string[] | undefined) =>
  names && names.length > 0 ? names.map((n) => n.toLowerCase()) : null
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

function percent(value: number, field: string): number {
  const e4 = percentToE4(value)
  if (e4 === null || e4 === 0 || e4 > 1_000_000) {
    throw invalid(field, 'must be a percentage above 0 and up to 100 with at most 4 decimals', 'out_of_range')
  }
  return e4
}

function compileRule(rule: RuleInput & { id: string }, currency: string, field: string): CompiledRule {
  switch (rule.type) {
    case 'percentage':
      return {
        id: rule.id,
        type: rule.type,
        percentE4: percent(rule.percent, `${field}.percent`),
        target: rule.target ?? 'order',
      }
    case 'fixed_amount':
      return {
        id: rule.id,
        type: rule.type,
        amount: toMinor(rule.amount, currency, `${field}.amount`),
        target: rule.target ?? 'order',
      }
    case 'buy_x_get_y':
      return {
        id: rule.id,
        type: rule.type,
        buy: rule.buy_quantity,
        get: rule.get_quantity,
        getProductIds: setOf(rule.get_product_ids),
        getCategoryIds: setOf(rule.get_category_ids),
        getPercentE4: percent(rule.get_percent ?? 100, `${field}.get_percent`),
        maxApplications: rule.max_applications ?? null,
      }
    case 'multi_buy':
      return {
        id: rule.id,
        type: rule.type,
        quantity: rule.quantity,
        price: toMinor(rule.price, currency, `${field}.price`),
        maxApplications: rule.max_applications ?? null,
      }
    case 'free_item':
      return { id: rule.id, type: rule.type, productId: rule.product_id, quantity: rule.quantity ?? 1 }
    case 'points_multiplier':
      return { id: rule.id, type: rule.type, multiplierE4: toScaled(rule.multiplier, 4, `${field}.multiplier`) }
  }
}

function compileConditions(c: Conditions, currency: string): CompiledConditions {
  return {
    productIds: setOf(c.product_ids),
    categoryIds: setOf(c.category_ids),
    minSpend: c.min_spend === undefined ? null : toMinor(c.min_spend, currency, 'conditions.min_spend'),
    minQuantity: c.min_quantity ?? null,
    tiers: lower(c.customer_tiers),
    tags: lower(c.customer_tags),
    locationIds: setOf(c.location_ids),
    days: c.days_of_week ? new Set(c.days_of_week) : null,
    hours: c.hours ? { from: minutesOf(c.hours.from), to: minutesOf(c.hours.to) } : null,
  }
}

export function compileCampaign(row: CampaignRow, currency: string): CampaignDef {
  const rules = row.rules as (RuleInput & { id: string })[]
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    priority: row.priority,
    stacking: row.stacking,
    stackingClass: row.stacking_class,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    conditions: compileConditions(row.conditions as Conditions, currency),
    rules: rules.map((r, i) => compileRule(r, currency, `rules.${i}`)),
    requiresVoucher: row.requires_voucher,
    usageLimit: row.usage_limit,
    usageCount: row.usage_count,
    perCustomerLimit: row.per_customer_limit,
  }
}
