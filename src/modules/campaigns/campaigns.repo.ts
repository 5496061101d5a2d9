import type { Queryable } from '../../platform/db/database.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'
import {
  type CampaignDiscountRow,
  type CampaignRow,
  type CampaignStatus,
  type CustomerUseRow,
  campaignColumns,
  type DueCampaignRow,
  type KeyedVoucherRow,
  type StatsRow,
  type UsageRow,
  type VoucherRow,
  voucherColumns,
} from './campaigns.tables.ts'

export interface CampaignWrite {
  name?: string
  description?: string
  status?: CampaignStatus
  priority?: number
  stacking?: CampaignRow['stacking']
  stackingClass?: string
  startsAt?: Date | null
  endsAt?: Date | null
  conditions?: unknown
  rules?: unknown
  requiresVoucher?: boolean
  usageLimit?: number | null
  perCustomerLimit?: number | null
}

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value))

export async function insertCampaign(
  q: Queryable,
  orgId: string,
  id: string,
  w: Required<CampaignWrite>,
): Promise<CampaignRow> {
  const result = await q.query<CampaignRow>(
    `INSERT INTO campaigns (org_id, id, name, description, status, priority, stacking, stacking_class, starts_at,
       ends_at, conditions, rules, requires_voucher, usage_limit, per_customer_limit)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${campaignColumns}`,
    [
      orgId,
      id,
      w.name,
      w.description,
      w.status,
      w.priority,
      w.stacking,
      w.stackingClass,
      w.startsAt,
      w.endsAt,
      json(w.conditions),
      json(w.rules),
      w.requiresVoucher,
      w.usageLimit,
      w.perCustomerLimit,
    ],
  )
  return result.rows[0]
}

export function updateCampaign(
  q: Queryable,
  orgId: string,
  id: string,
  w: CampaignWrite,
  expectedVersion: number | undefined,
): Promise<CampaignRow | undefined> {
  return updateVersioned<CampaignRow>(
    q,
    'campaigns',
    campaignColumns,
    orgId,
    id,
    {
      name: w.name,
      description: w.description,
      status: w.status,
      priority: w.priority,
      stacking: w.stacking,
      stacking_class: w.stackingClass,
      starts_at: w.startsAt,
      ends_at: w.endsAt,
      conditions: json(w.conditions),
      rules: json(w.rules),
      requires_voucher: w.requiresVoucher,
      usage_limit: w.usageLimit,
      per_customer_limit: w.perCustomerLimit,
    },
    expectedVersion,
  )
}

export async function campaignById(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
): Promise<CampaignRow | undefined> {
  const result = await q.query<CampaignRow>(
    `SELECT ${campaignColumns} FROM campaigns WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function listCampaigns(
  q: Queryable,
  orgId: string,
  o: { afterId: string | null; status: CampaignStatus | null; limit: number },
): Promise<CampaignRow[]> {
  const result = await q.query<CampaignRow>(
    `SELECT ${campaignColumns} FROM campaigns
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR status = $3)
     ORDER BY id LIMIT $4`,
    [orgId, o.afterId, o.status, o.limit],
  )
  return result.rows
}

/** The campaigns that may apply now or later without a request: what pricing keeps per process. */
export async function liveCampaigns(q: Queryable, orgId: string): Promise<CampaignRow[]> {
  const result = await q.prepared<CampaignRow>(
    'campaigns_live',
    `SELECT ${campaignColumns} FROM campaigns
     WHERE org_id = $1 AND status IN ('scheduled', 'active', 'paused') ORDER BY priority DESC, id`,
    [orgId],
  )
  return result.rows
}

/** The current uses of campaigns with a usage limit (kept definitions would show them as they were). */
export async function usageCounts(q: Queryable, orgId: string, ids: readonly string[]): Promise<UsageRow[]> {
  const result = await q.query<UsageRow>(
    'SELECT id, usage_count FROM campaigns WHERE org_id = $1 AND id = ANY($2::text[])',
    [orgId, ids],
  )
  return result.rows
}

export async function vouchersByCode(
  q: Queryable,
  orgId: string,
  codeKeys: readonly string[],
): Promise<KeyedVoucherRow[]> {
  const result = await q.query<KeyedVoucherRow>(
    `SELECT ${voucherColumns}, code_key FROM campaign_vouchers WHERE org_id = $1 AND code_key = ANY($2::text[])`,
    [orgId, codeKeys],
  )
  return result.rows
}

export async function customerUses(q: Queryable, orgId: string, customerId: string): Promise<CustomerUseRow[]> {
  const result = await q.query<CustomerUseRow>(
    'SELECT campaign_id, uses FROM campaign_customer_uses WHERE org_id = $1 AND customer_id = $2',
    [orgId, customerId],
  )
  return result.rows
}

export async function insertVouchers(
  q: Queryable,
  orgId: string,
  campaignId: string,
  vouchers: readonly { id: string; code: string; maxUses: number; customerId: string | null }[],
): Promise<VoucherRow[]> {
  const result = await q.query<VoucherRow>(
    `INSERT INTO campaign_vouchers (org_id, id, campaign_id, code, code_key, max_uses, customer_id)
     SELECT $1, v.id, $2, v.code, upper(v.code), v.max_uses, v.customer_id
     FROM unnest($3::text[], $4::text[], $5::int[], $6::text[]) AS v(id, code, max_uses, customer_id)
     ON CONFLICT (org_id, code_key) DO NOTHING
     RETURNING ${voucherColumns}`,
    [
      orgId,
      campaignId,
      vouchers.map((v) => v.id),
      vouchers.map((v) => v.code),
      vouchers.map((v) => v.maxUses),
      vouchers.map((v) => v.customerId),
    ],
  )
  return result.rows
}

export async function listVouchers(
  q: Queryable,
  orgId: string,
  campaignId: string,
  afterId: string | null,
  limit: number,
): Promise<VoucherRow[]> {
  const result = await q.query<VoucherRow>(
    `SELECT ${voucherColumns} FROM campaign_vouchers
     WHERE org_id = $1 AND campaign_id = $2 AND ($3::text IS NULL OR id > $3) ORDER BY id LIMIT $4`,
    [orgId, campaignId, afterId, limit],
  )
  return result.rows
}

export async function stats(q: Queryable, orgId: string, campaignId: string): Promise<StatsRow> {
  const result = await q.query<StatsRow>(
    `SELECT count(*) AS redemptions, count(voucher_id) AS voucher_redemptions, count(DISTINCT order_id) AS orders,
       sum(discount_amount) AS discount_given, sum(order_total) AS revenue,
       count(DISTINCT customer_id) AS unique_customers, min(currency) AS currency
     FROM campaign_redemptions WHERE org_id = $1 AND campaign_id = $2 AND released_at IS NULL`,
    [orgId, campaignId],
  )
  return result.rows[0]
}

interface Claim {
  redemption_id: string
  campaign_id: string
  voucher_id: string | null
  /** Minor units, as text so JSON carries it exactly. */
  discount: string
}

/** An order's campaign uses, as campaign_claim counts them (db/migrations/0153). */
export interface ClaimedUses {
  orderId: string
  locationId: string
  customerId: string | null
  currency: string
  orderTotal: bigint
  claims: readonly Claim[]
}

/**
 * The order's campaign uses, counted under their limits in one statement. At the till (`refuse`) a use past a limit
 * fails the statement (claimRefusal reads why); for a sale made offline it is recorded uncounted and answered.
 */
export async function claim(
  q: Queryable,
  o: ClaimedUses,
  refuse: boolean,
): Promise<{ campaign_id: string; code: string }[]> {
  const result = await q.prepared<{ campaign_id: string; code: string }>(
    'campaign_claim',
    'SELECT campaign_id, code FROM campaign_claim($1, $2, $3, $4, $5, $6::jsonb, $7)',
    [o.orderId, o.locationId, o.customerId, o.currency, o.orderTotal.toString(), JSON.stringify(o.claims), refuse],
  )
  return result.rows
}

/** A refused claim: the limit's error code and the campaign, or null for any other error. */
export function claimRefusal(error: unknown): { code: string; campaignId: string } | null {
  const e = error as { code?: string; message?: string; detail?: string }
  return e?.code === 'OT409' && e.message ? { code: e.message, campaignId: e.detail ?? '' } : null
}

export async function release(q: Queryable, orderId: string): Promise<number> {
  const result = await q.query<{ released: number }>('SELECT campaign_release($1) AS released', [orderId])
  return result.rows[0].released
}

/** Campaigns of any org whose start or end has passed while their stored status still says otherwise. */
export async function dueCampaigns(q: Queryable, at: Date, batch: number): Promise<DueCampaignRow[]> {
  const result = await q.query<DueCampaignRow>('SELECT org_id, id FROM campaigns_due($1, $2)', [at, batch])
  return result.rows
}

/** Discounts by campaign over local days (each redemption on its order's location's day), voided orders left out. */
export async function discountsByCampaign(
  q: Queryable,
  orgId: string,
  r: { from: string; to: string; locationId: string | null },
): Promise<CampaignDiscountRow[]> {
  const result = await q.query<CampaignDiscountRow>(
    `SELECT r.campaign_id, c.name, count(*) AS redemptions, count(DISTINCT r.order_id) AS orders,
       sum(r.discount_amount) AS discount, sum(r.order_total) AS revenue
     FROM campaign_redemptions r JOIN campaigns c ON c.org_id = r.org_id AND c.id = r.campaign_id
     WHERE r.org_id = $1 AND r.released_at IS NULL
       AND r.created_at >= ($2::date - 1)::timestamptz AND r.created_at < ($3::date + 2)::timestamptz
       AND local_day(r.org_id, r.location_id, r.created_at) BETWEEN $2::date AND $3::date
       AND ($4::text IS NULL OR r.location_id = $4)
     GROUP BY r.campaign_id, c.name ORDER BY sum(r.discount_amount) DESC, r.campaign_id`,
    [orgId, r.from, r.to, r.locationId],
  )
  return result.rows
}
