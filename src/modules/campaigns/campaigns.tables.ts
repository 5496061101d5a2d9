/** Row types and column lists of the campaigns tables, once each (db/migrations/0070_campaigns.sql). */

export type CampaignStatus = 'draft' | 'scheduled' | 'active' | 'paused' | 'ended'

export interface CampaignRow {
  id: string
  org_id: string
  name: string
  description: string
  status: CampaignStatus
  priority: number
  stacking: 'exclusive' | 'stackable'
  stacking_class: string
  starts_at: Date | null
  ends_at: Date | null
  conditions: unknown
  rules: unknown
  requires_voucher: boolean
  usage_limit: number | null
  usage_count: number
  per_customer_limit: number | null
  version: number
  created_at: Date
  updated_at: Date
}

export const campaignColumns =
  'id, org_id, name, description, status, priority, stacking, stacking_class, starts_at, ends_at, conditions, rules, requires_voucher, usage_limit, usage_count, per_customer_limit, version, created_at, updated_at'

export interface VoucherRow {
  id: string
  campaign_id: string
  code: string
  max_uses: number
  uses: number
  customer_id: string | null
  created_at: Date
}

export const voucherColumns = 'id, campaign_id, code, max_uses, uses, customer_id, created_at'

/** A voucher found by its upper-cased code. */
export type KeyedVoucherRow = VoucherRow & { code_key: string }

/** A campaign's current uses, for limits. */
export type UsageRow = Pick<CampaignRow, 'id' | 'usage_count'>

/** What campaigns_due() answers. */
export type DueCampaignRow = Pick<CampaignRow, 'org_id' | 'id'>

export interface CustomerUseRow {
  campaign_id: string
  uses: number
}

/** campaign_redemptions totals of one campaign. */
export interface StatsRow {
  redemptions: string
  voucher_redemptions: string
  orders: string
  discount_given: string | null
  revenue: string | null
  unique_customers: string
  currency: string | null
}

/** campaign_redemptions totals by campaign, with its name. */
export interface CampaignDiscountRow {
  campaign_id: string
  name: string
  redemptions: string
  orders: string
  discount: string
  revenue: string
}
