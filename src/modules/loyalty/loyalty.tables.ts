/** Row types and column lists of the loyalty tables, once each (db/migrations/0080_loyalty.sql, 0136). */

export interface ProgramRow {
  id: string
  name: string
  status: 'active' | 'inactive'
  points_per_unit_e4: string
  rounding: 'floor' | 'nearest' | 'ceil'
  excluded_product_ids: string[]
  excluded_category_ids: string[]
  expiry_days: number | null
  auto_enroll: boolean
  point_value_e4: string
  tier_basis: 'lifetime_points' | 'lifetime_spend'
  /** [{ name, threshold (points, or minor units of spend), multiplier_e4, benefits }] */
  tiers: { name: string; threshold: string; multiplier_e4: string; benefits: string[] }[]
  version: number
  created_at: Date
  updated_at: Date
}

export const programColumns =
  'id, name, status, points_per_unit_e4, rounding, excluded_product_ids, excluded_category_ids, expiry_days, auto_enroll, point_value_e4, tier_basis, tiers, version, created_at, updated_at'

export interface MemberRow {
  id: string
  customer_id: string
  program_id: string
  /** The stored balance, less lots already past their expiry that the job has not yet expired. */
  balance: string
  lifetime_points: string
  lifetime_spend: string
  tier: string | null
  joined_at: Date
}

export const memberColumns = 'id, customer_id, program_id, balance, lifetime_points, lifetime_spend, tier, joined_at'

/** A lot as spending and expiry read it. */
export interface LotRow {
  id: string
  remaining: string
  expires_at: Date | null
}

export const lotColumns = 'id, remaining, expires_at'

export interface MovementRow {
  id: string
  kind: 'accrual' | 'adjustment' | 'redemption' | 'expiry' | 'refund' | 'reversal'
  points: string
  balance_after: string
  reason: string
  order_id: string | null
  reward: object | null
  created_at: Date
}

export const movementColumns = 'id, kind, points, balance_after, reason, order_id, reward, created_at'

/** A reward the program sells for points (loyalty_rewards). */
export interface RewardRow {
  id: string
  program_id: string
  name: string
  points: string
  kind: 'order_discount' | 'voucher'
  /** Minor units off an order (order_discount). */
  amount: string | null
  campaign_id: string | null
  active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export const rewardColumns =
  'id, program_id, name, points, kind, amount, campaign_id, active, version, created_at, updated_at'

/** A redemption on an order not yet given back (voiding the order gives it back). */
export interface RedemptionRow {
  id: string
  member_id: string
  points: string
  reward: object | null
}

export interface OrderPointsRow {
  member_id: string
  earned: string
  base: string
  reversed: string
  base_reversed: string
}

/** What loyalty_members_with_expired_lots() answers. */
export interface ExpiredMemberRow {
  org_id: string
  member_id: string
}

/** Members and their live points, over the org (reports). */
export interface OutstandingRow {
  tier: string | null
  members: string
  points: string | null
}
