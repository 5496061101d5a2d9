import { allocate, divRoundHalfUp, formatMoney } from '../../platform/money/money.ts'
import { PERCENT_E4 } from '../../platform/money/percent.ts'
import type { CampaignRow, CampaignStatus } from './campaigns.tables.ts'

/**
 * The campaign engine: which campaigns apply to a cart and what each takes off each line, in integer minor units.
 * Pure, so the unit and property tests drive it directly. The order of work (docs/campaigns.md "Applying"):
 * campaigns by priority (higher first, then id); the first that applies leads, and later ones apply only when both
 * are stackable and of the same class; each rule works on what earlier ones left of each line, so no line ever goes
 * below zero. Every campaign that is live but does not apply is reported with a reason.
 */

export type CompiledRule =
  | { id: string; type: 'percentage'; percentE4: number; target: 'order' | 'line' }
  | { id: string; type: 'fixed_amount'; amount: bigint; target: 'order' | 'line' }
  | {
      id: string
      type: 'buy_x_get_y'
      buy: number
      get: number
      getProductIds: ReadonlySet<string> | null
      getCategoryIds: ReadonlySet<string> | null
      getPercentE4: number
      maxApplications: number | null
    }
  | { id: string; type: 'multi_buy'; quantity: number; price: bigint; maxApplications: number | null }
  | { id: string; type: 'free_item'; productId: string; quantity: number }
  /** Takes nothing off: multiplies the loyalty points the order earns (× 10,000). */
  | { id: string; type: 'points_multiplier'; multiplierE4: bigint }

export interface CompiledConditions {
  productIds: ReadonlySet<string> | null
  categoryIds: ReadonlySet<string> | null
  minSpend: bigint | null
  minQuantity: number | null
  /** Lower-cased tier names. */
  tiers: readonly string[] | null
  /** Lower-cased tags. */
  tags: readonly string[] | null
  locationIds: ReadonlySet<string> | null
  /** ISO days, 1 = Monday. */
  days: ReadonlySet<number> | null
  /** Minutes after local midnight; `from > to` spans midnight. */
  hours: { from: number; to: number } | null
}

export interface CampaignDef {
  id: string
  name: string
  status: CampaignStatus
  priority: number
  stacking: CampaignRow['stacking']
  stackingClass: string
  startsAt: Date | null
  endsAt: Date | null
  conditions: CompiledConditions
  rules: readonly CompiledRule[]
  requiresVoucher: boolean
  usageLimit: number | null
  usageCount: number
  perCustomerLimit: number | null
}

export interface CartLine {
  productId: string
  categoryId: string | null
  /** Unit price with modifiers, before any discount. */
  unitPrice: bigint
  quantity: number
}

export interface PresentedVoucher {
  id: string
  code: string
  campaignId: string
  usesLeft: number
  customerId: string | null
}

export interface Cart {
  currency: string
  lines: readonly CartLine[]
  locationId: string
  at: Date
  /** The selling location's wall clock at `at`. */
  local: { isoDay: number; minutes: number }
  customer: { id: string; tier: string | null; tags: readonly string[]; uses: ReadonlyMap<string, number> } | null
  /** The vouchers the till presented, by campaign. */
  vouchers: ReadonlyMap<string, PresentedVoucher>
}

export interface Application {
  campaignId: string
  name: string
  ruleId: string
  ruleType: CompiledRule['type']
  voucher: PresentedVoucher | null
  /** What the rule took off each line, by the cart's line index. */
  perLine: bigint[]
  amount: bigint
  /** A points_multiplier rule's multiplier (× 10,000). */
  pointsMultiplierE4?: bigint
}

type SkipCode =
  | 'location'
  | 'schedule'
  | 'voucher_required'
  | 'voucher_used_up'
  | 'voucher_not_for_customer'
  | 'customer_required'
  | 'customer_tier'
  | 'customer_tag'
  | 'usage_limit'
  | 'customer_limit'
  | 'min_spend'
  | 'min_quantity'
  | 'no_eligible_items'
  | 'nothing_to_discount'
  | 'not_stackable'

export interface Skip {
  campaignId: string
  name: string
  code: SkipCode
  reason: string
}

/** The status a campaign has at `at`: a stored status, moved on by its start and end (docs/campaigns.md). */
export function statusAt(c: Pick<CampaignDef, 'status' | 'startsAt' | 'endsAt'>, at: Date): CampaignDef['status'] {
  const t = at.getTime()
  if (c.status === 'draft' || c.status === 'ended') return c.status
  if (c.endsAt && c.endsAt.getTime() <= t) return 'ended'
  if (c.status === 'scheduled' && (!c.startsAt || c.startsAt.getTime() <= t)) return 'active'
  return c.status
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

function withinHours(hours: { from: number; to: number }, minutes: number): boolean {
  return hours.from <= hours.to
    ? minutes >= hours.from && minutes < hours.to
    : minutes >= hours.from || minutes < hours.to
}

function isEligible(c: CompiledConditions, line: CartLine): boolean {
  if (!c.productIds && !c.categoryIds) return true
  return Boolean(c.productIds?.has(line.productId) || (line.categoryId !== null && c.categoryIds?.has(line.categoryId)))
}

/** Why a live campaign cannot apply to this cart before any arithmetic, or null. */
function refusal(c: CampaignDef, cart: Cart, eligible: readonly number[]): Omit<Skip, 'campaignId' | 'name'> | null {
  const k = c.conditions
  if (k.locationIds && !k.locationIds.has(cart.locationId)) return { code: 'location', reason: 'not at this location' }
  if (k.days && !k.days.has(cart.local.isoDay)) {
    const days = [...k.days].sort().map((d) => DAY_NAMES[d - 1])
    return { code: 'schedule', reason: `only on ${days.join(', ')}` }
  }
  if (k.hours && !withinHours(k.hours, cart.local.minutes)) {
    return { code: 'schedule', reason: `only between ${hhmm(k.hours.from)} and ${hhmm(k.hours.to)}` }
  }
  const voucher = cart.vouchers.get(c.id)
  if (c.requiresVoucher && !voucher) return { code: 'voucher_required', reason: 'needs a voucher' }
  if (voucher && voucher.usesLeft <= 0) return { code: 'voucher_used_up', reason: 'voucher used up' }
  if (voucher?.customerId && voucher.customerId !== cart.customer?.id) {
    return { code: 'voucher_not_for_customer', reason: 'voucher belongs to another customer' }
  }
  const needsCustomer = k.tiers || k.tags || c.perCustomerLimit !== null
  if (needsCustomer && !cart.customer) return { code: 'customer_required', reason: 'only for a known customer' }
  if (k.tiers && !k.tiers.includes(cart.customer?.tier?.toLowerCase() ?? '')) {
    return { code: 'customer_tier', reason: `only for ${k.tiers.join(' or ')} members` }
  }
  if (k.tags) {
    const has = new Set(cart.customer?.tags.map((t) => t.toLowerCase()))
    if (!k.tags.some((t) => has.has(t))) {
      return { code: 'customer_tag', reason: `only for customers tagged ${k.tags.join(' or ')}` }
    }
  }
  if (c.usageLimit !== null && c.usageCount >= c.usageLimit)
    return { code: 'usage_limit', reason: 'usage limit reached' }
  if (c.perCustomerLimit !== null && (cart.customer?.uses.get(c.id) ?? 0) >= c.perCustomerLimit) {
    return { code: 'customer_limit', reason: `already used ${c.perCustomerLimit} time(s) by this customer` }
  }
  if (eligible.length === 0) return { code: 'no_eligible_items', reason: 'no eligible product in the order' }
  if (k.minSpend !== null) {
    const spend = eligible.reduce((a, i) => a + at(cart.lines, i).unitPrice * BigInt(at(cart.lines, i).quantity), 0n)
    if (spend < k.minSpend) {
      return { code: 'min_spend', reason: `minimum spend ${formatMoney(k.minSpend, cart.currency)} not reached` }
    }
  }
  if (k.minQuantity !== null) {
    const units = eligible.reduce((a, i) => a + at(cart.lines, i).quantity, 0)
    if (units < k.minQuantity) return { code: 'min_quantity', reason: `minimum quantity ${k.minQuantity} not reached` }
  }
  return null
}

/**
 * The item at `i` of a list indexed like the cart's lines (what is left of each, a rule's amounts): the lists are
 * built from the lines, so a missing item is a bug, and refused rather than read as undefined.
 */
function at<T>(list: readonly T[], i: number): T {
  const item = list[i]
  if (item === undefined) throw new RangeError(`no item ${i} of ${list.length}`)
  return item
}

/** The value of `units` of a line's `quantity` when `left` remains of it: cumulative, so all units sum to `left`. */
const unitsValue = (left: bigint, quantity: number, units: number) =>
  divRoundHalfUp(left * BigInt(units), BigInt(quantity))

const percentOf = (amount: bigint, percentE4: number) => divRoundHalfUp(amount * BigInt(percentE4), PERCENT_E4)

/**
 * Picks `wanted` units from `lines`, cheapest (or dearest) first by what remains of each unit: answers how many
 * units of each line index were taken.
 */
function pickUnits(
  lines: readonly number[],
  cart: Cart,
  left: readonly bigint[],
  wanted: number,
  dearestFirst: boolean,
): Map<number, number> {
  const order = [...lines].sort((a, b) => {
    // at(left, a)/qa against at(left, b)/qb without division.
    const x = at(left, a) * BigInt(at(cart.lines, b).quantity)
    const y = at(left, b) * BigInt(at(cart.lines, a).quantity)
    const cmp = x < y ? -1 : x > y ? 1 : a - b
    return dearestFirst ? -cmp : cmp
  })
  const picked = new Map<number, number>()
  let rest = wanted
  for (const i of order) {
    if (rest === 0) break
    const take = Math.min(rest, at(cart.lines, i).quantity)
    if (take > 0) picked.set(i, take)
    rest -= take
  }
  return picked
}

const units = (cart: Cart, lines: readonly number[]) => lines.reduce((a, i) => a + at(cart.lines, i).quantity, 0)

/** What one rule takes off each line, given what earlier rules left (`left`); never more than `left`. */
function ruleAmounts(rule: CompiledRule, cart: Cart, eligible: readonly number[], left: readonly bigint[]) {
  const perLine = cart.lines.map(() => 0n)
  switch (rule.type) {
    case 'percentage': {
      if (rule.target === 'line') {
        for (const i of eligible) perLine[i] = percentOf(at(left, i), rule.percentE4)
      } else {
        const base = eligible.reduce((a, i) => a + at(left, i), 0n)
        const shares = allocate(
          percentOf(base, rule.percentE4),
          eligible.map((i) => at(left, i)),
        )
        eligible.forEach((i, n) => {
          perLine[i] = at(shares, n)
        })
      }
      break
    }
    case 'fixed_amount': {
      if (rule.target === 'line') {
        for (const i of eligible) {
          const off = rule.amount * BigInt(at(cart.lines, i).quantity)
          perLine[i] = off < at(left, i) ? off : at(left, i)
        }
      } else {
        const base = eligible.reduce((a, i) => a + at(left, i), 0n)
        const shares = allocate(
          rule.amount < base ? rule.amount : base,
          eligible.map((i) => at(left, i)),
        )
        eligible.forEach((i, n) => {
          perLine[i] = at(shares, n)
        })
      }
      break
    }
    case 'buy_x_get_y': {
      const separate = rule.getProductIds !== null || rule.getCategoryIds !== null
      const getLines = separate
        ? cart.lines
            .map((l, i) => ({ l, i }))
            .filter(
              ({ l }) =>
                rule.getProductIds?.has(l.productId) ||
                (l.categoryId !== null && rule.getCategoryIds?.has(l.categoryId)),
            )
            .map(({ i }) => i)
        : [...eligible]
      const buyLines = separate ? eligible.filter((i) => !getLines.includes(i)) : [...eligible]
      let groups = separate
        ? Math.floor(units(cart, buyLines) / rule.buy)
        : Math.floor(units(cart, eligible) / (rule.buy + rule.get))
      if (rule.maxApplications !== null) groups = Math.min(groups, rule.maxApplications)
      const free = Math.min(groups * rule.get, units(cart, getLines))
      for (const [i, n] of pickUnits(getLines, cart, left, free, false)) {
        perLine[i] = percentOf(unitsValue(at(left, i), at(cart.lines, i).quantity, n), rule.getPercentE4)
      }
      break
    }
    case 'multi_buy': {
      let groups = Math.floor(units(cart, eligible) / rule.quantity)
      if (rule.maxApplications !== null) groups = Math.min(groups, rule.maxApplications)
      // Sets are made from the dearest units first, and each set is priced on its own: a set that already costs
      // less than the set price is left alone rather than eating into the saving of another.
      const picked = [...pickUnits(eligible, cart, left, groups * rule.quantity, true)]
      const taken = new Map<number, number>()
      let cursor = 0
      for (let g = 0; g < groups; g++) {
        const parts: { i: number; value: bigint }[] = []
        let need = rule.quantity
        while (need > 0) {
          const [i, n] = at(picked, cursor)
          const done = taken.get(i) ?? 0
          const take = Math.min(need, n - done)
          const q = at(cart.lines, i).quantity
          parts.push({ i, value: unitsValue(at(left, i), q, done + take) - unitsValue(at(left, i), q, done) })
          taken.set(i, done + take)
          need -= take
          if (done + take === n) cursor++
        }
        const value = parts.reduce((a, p) => a + p.value, 0n)
        const off = value - rule.price
        if (off <= 0n) continue
        allocate(
          off,
          parts.map((p) => p.value),
        ).forEach((share, n) => {
          perLine[at(parts, n).i] = at(perLine, at(parts, n).i) + share
        })
      }
      break
    }
    case 'free_item': {
      const lines = cart.lines.map((l, i) => ({ l, i })).filter(({ l }) => l.productId === rule.productId)
      const picked = pickUnits(
        lines.map(({ i }) => i),
        cart,
        left,
        rule.quantity,
        false,
      )
      for (const [i, n] of picked) perLine[i] = unitsValue(at(left, i), at(cart.lines, i).quantity, n)
      break
    }
    case 'points_multiplier':
      break
  }
  return perLine
}

function nothingReason(rule: CompiledRule): string {
  switch (rule.type) {
    case 'buy_x_get_y':
      return `buy ${rule.buy} get ${rule.get}: not enough eligible items`
    case 'multi_buy':
      return `${rule.quantity} for a set price: not enough eligible items, or they already cost less`
    case 'free_item':
      return 'the free item is not in the order'
    default:
      return 'nothing left to discount'
  }
}

export function applyCampaigns(
  campaigns: readonly CampaignDef[],
  cart: Cart,
): { applications: Application[]; skipped: Skip[] } {
  const live = campaigns.filter((c) => statusAt(c, cart.at) === 'active').sort(byPriority)
  const left = cart.lines.map((l) => l.unitPrice * BigInt(l.quantity))
  const applications: Application[] = []
  const skipped: Skip[] = []
  let lead: CampaignDef | null = null
  for (const c of live) {
    const eligible: number[] = []
    for (let i = 0; i < cart.lines.length; i++) if (isEligible(c.conditions, at(cart.lines, i))) eligible.push(i)
    let skip = refusal(c, cart, eligible)
    if (
      !skip &&
      lead &&
      (lead.stacking === 'exclusive' || c.stacking === 'exclusive' || lead.stackingClass !== c.stackingClass)
    ) {
      skip = { code: 'not_stackable', reason: `does not combine with ${lead.name}` }
    }
    const mine = skip ? [] : applyRules(c, cart, eligible, left)
    if (!skip && mine.length === 0) skip = { code: 'nothing_to_discount', reason: nothingReason(at(c.rules, 0)) }
    if (skip) {
      skipped.push({ campaignId: c.id, name: c.name, code: skip.code, reason: skip.reason })
      continue
    }
    for (const a of mine) for (let i = 0; i < left.length; i++) left[i] = at(left, i) - at(a.perLine, i)
    applications.push(...mine)
    lead ??= c
  }
  return { applications, skipped }
}

function byPriority(a: CampaignDef, b: CampaignDef): number {
  return b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** A campaign's rules in turn, each on what the ones before it left; the ones that took something (or multiply points). */
function applyRules(c: CampaignDef, cart: Cart, eligible: readonly number[], left: readonly bigint[]): Application[] {
  const mine: Application[] = []
  const after = [...left]
  const voucher = cart.vouchers.get(c.id) ?? null
  for (const rule of c.rules) {
    const perLine = ruleAmounts(rule, cart, eligible, after)
    let amount = 0n
    for (let i = 0; i < perLine.length; i++) {
      after[i] = at(after, i) - at(perLine, i)
      amount += at(perLine, i)
    }
    const base = { campaignId: c.id, name: c.name, ruleId: rule.id, ruleType: rule.type, voucher, perLine, amount }
    if (rule.type === 'points_multiplier') mine.push({ ...base, pointsMultiplierE4: rule.multiplierE4 })
    else if (amount > 0n) mine.push(base)
  }
  return mine
}
