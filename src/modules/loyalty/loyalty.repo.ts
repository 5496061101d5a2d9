import type { Queryable } from '../../platform/db/database.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'
import {
  type ExpiredMemberRow,
  type LotRow,
  lotColumns,
  type MemberRow,
  type MovementRow,
  memberColumns,
  movementColumns,
  type OrderPointsRow,
  type OutstandingRow,
  type ProgramRow,
  programColumns,
  type RedemptionRow,
  type RewardRow,
  rewardColumns,
} from './loyalty.tables.ts'

export interface ProgramWrite {
  name?: string
  status?: ProgramRow['status']
  pointsPerUnitE4?: bigint
  rounding?: ProgramRow['rounding']
  excludedProductIds?: string[]
  excludedCategoryIds?: string[]
  expiryDays?: number | null
  autoEnroll?: boolean
  pointValueE4?: bigint
  tierBasis?: ProgramRow['tier_basis']
  tiers?: ProgramRow['tiers']
}

export async function insertProgram(q: Queryable, orgId: string, id: string, w: Required<ProgramWrite>) {
  const result = await q.query<ProgramRow>(
    `INSERT INTO loyalty_programs (org_id, id, name, status, points_per_unit_e4, rounding, excluded_product_ids,
       excluded_category_ids, expiry_days, auto_enroll, point_value_e4, tier_basis, tiers)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${programColumns}`,
    [
      orgId,
      id,
      w.name,
      w.status,
      w.pointsPerUnitE4.toString(),
      w.rounding,
      w.excludedProductIds,
      w.excludedCategoryIds,
      w.expiryDays,
      w.autoEnroll,
      w.pointValueE4.toString(),
      w.tierBasis,
      JSON.stringify(w.tiers),
    ],
  )
  return result.rows[0]
}

export function updateProgram(q: Queryable, orgId: string, id: string, w: ProgramWrite, expected?: number) {
  return updateVersioned<ProgramRow>(
    q,
    'loyalty_programs',
    programColumns,
    orgId,
    id,
    {
      name: w.name,
      status: w.status,
      points_per_unit_e4: w.pointsPerUnitE4?.toString(),
      rounding: w.rounding,
      excluded_product_ids: w.excludedProductIds,
      excluded_category_ids: w.excludedCategoryIds,
      expiry_days: w.expiryDays,
      auto_enroll: w.autoEnroll,
      point_value_e4: w.pointValueE4?.toString(),
      tier_basis: w.tierBasis,
      tiers: w.tiers === undefined ? undefined : JSON.stringify(w.tiers),
    },
    expected,
  )
}

export async function programById(q: Queryable, orgId: string, id: string) {
  const result = await q.query<ProgramRow>(
    `SELECT ${programColumns} FROM loyalty_programs WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function activeProgram(q: Queryable, orgId: string) {
  const result = await q.prepared<ProgramRow>(
    'loyalty_active_program',
    `SELECT ${programColumns} FROM loyalty_programs WHERE org_id = $1 AND status = 'active'`,
    [orgId],
  )
  return result.rows[0]
}

export async function listPrograms(q: Queryable, orgId: string, afterId: string | null, limit: number) {
  const result = await q.query<ProgramRow>(
    `SELECT ${programColumns} FROM loyalty_programs WHERE org_id = $1 AND ($2::text IS NULL OR id > $2)
     ORDER BY id LIMIT $3`,
    [orgId, afterId, limit],
  )
  return result.rows
}

// A member's balance as a read shows it: lots already past their expiry no longer count, job or no job.
const liveBalance = (at: string) => `m.balance - COALESCE((SELECT sum(l.remaining) FROM loyalty_lots l
  WHERE l.org_id = m.org_id AND l.member_id = m.id AND l.remaining > 0 AND l.expires_at <= ${at}), 0)`
const memberSelect = (at: string) =>
  memberColumns
    .split(', ')
    .map((c) => (c === 'balance' ? `${liveBalance(at)} AS balance` : `m.${c}`))
    .join(', ')

export async function memberByCustomer(q: Queryable, orgId: string, customerId: string, at: Date, lock = false) {
  const result = await q.query<MemberRow>(
    `SELECT ${memberSelect('$3')} FROM loyalty_members m WHERE m.org_id = $1 AND m.customer_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, customerId, at],
  )
  return result.rows[0]
}

export async function insertMember(
  q: Queryable,
  orgId: string,
  id: string,
  customerId: string,
  programId: string,
  tier: string | null,
) {
  const result = await q.query<MemberRow>(
    `INSERT INTO loyalty_members AS m (org_id, id, customer_id, program_id, tier) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id, customer_id) DO NOTHING RETURNING ${memberSelect('now()')}`,
    [orgId, id, customerId, programId, tier],
  )
  return result.rows[0]
}

/** Moves a locked member's balance and lifetime totals, and sets its tier; answers the stored row. */
export async function moveMember(
  q: Queryable,
  orgId: string,
  id: string,
  m: { balance: bigint; lifetimePoints: bigint; lifetimeSpend: bigint; tier: string | null },
) {
  const result = await q.query<MemberRow>(
    `UPDATE loyalty_members m SET balance = balance + $3, lifetime_points = lifetime_points + $4,
       lifetime_spend = lifetime_spend + $5, tier = $6, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${memberSelect('now()')}`,
    [orgId, id, m.balance.toString(), m.lifetimePoints.toString(), m.lifetimeSpend.toString(), m.tier],
  )
  return result.rows[0]
}

export async function insertLot(
  q: Queryable,
  orgId: string,
  lot: { id: string; memberId: string; points: bigint; expiresAt: Date | null },
) {
  await q.query(
    `INSERT INTO loyalty_lots (org_id, id, member_id, points, remaining, expires_at) VALUES ($1, $2, $3, $4, $4, $5)`,
    [orgId, lot.id, lot.memberId, lot.points.toString(), lot.expiresAt],
  )
}

/** A member's lots with points left, oldest expiry first (lots that never expire last), or newest first. */
export async function liveLots(q: Queryable, orgId: string, memberId: string, newestFirst = false) {
  const result = await q.query<LotRow>(
    `SELECT ${lotColumns} FROM loyalty_lots WHERE org_id = $1 AND member_id = $2 AND remaining > 0
     ORDER BY ${newestFirst ? 'id DESC' : 'expires_at NULLS LAST, id'}`,
    [orgId, memberId],
  )
  return result.rows
}

export async function takeFromLots(q: Queryable, orgId: string, taken: readonly { id: string; take: bigint }[]) {
  if (taken.length === 0) return
  await q.query(
    `UPDATE loyalty_lots l SET remaining = l.remaining - t.take
     FROM unnest($2::text[], $3::bigint[]) AS t(id, take) WHERE l.org_id = $1 AND l.id = t.id`,
    [orgId, taken.map((t) => t.id), taken.map((t) => t.take.toString())],
  )
}

export async function insertMovement(
  q: Queryable,
  orgId: string,
  m: {
    id: string
    memberId: string
    kind: MovementRow['kind']
    points: bigint
    balanceAfter: bigint
    reason: string
    orderId: string | null
    reward: object | null
    /** The redemption a reversal gives back. */
    reverses?: string
  },
) {
  const result = await q.query<MovementRow>(
    `INSERT INTO loyalty_movements (org_id, id, member_id, kind, points, balance_after, reason, order_id, reward, reverses)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${movementColumns}`,
    [
      orgId,
      m.id,
      m.memberId,
      m.kind,
      m.points.toString(),
      m.balanceAfter.toString(),
      m.reason,
      m.orderId,
      m.reward === null ? null : JSON.stringify(m.reward),
      m.reverses ?? null,
    ],
  )
  return result.rows[0]
}

/** The redemptions made on an order that no reversal has given back yet. */
export async function openRedemptionsOfOrder(q: Queryable, orgId: string, orderId: string) {
  const result = await q.query<RedemptionRow>(
    `SELECT m.id, m.member_id, -m.points AS points, m.reward FROM loyalty_movements m
     WHERE m.org_id = $1 AND m.order_id = $2 AND m.kind = 'redemption'
       AND NOT EXISTS (SELECT 1 FROM loyalty_movements r WHERE r.org_id = m.org_id AND r.reverses = m.id)
     ORDER BY m.id`,
    [orgId, orderId],
  )
  return result.rows
}

export async function insertReward(
  q: Queryable,
  orgId: string,
  r: {
    id: string
    programId: string
    name: string
    points: bigint
    kind: RewardRow['kind']
    amount: bigint | null
    campaignId: string | null
    active: boolean
  },
) {
  const result = await q.query<RewardRow>(
    `INSERT INTO loyalty_rewards (org_id, id, program_id, name, points, kind, amount, campaign_id, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${rewardColumns}`,
    [
      orgId,
      r.id,
      r.programId,
      r.name,
      r.points.toString(),
      r.kind,
      r.amount?.toString() ?? null,
      r.campaignId,
      r.active,
    ],
  )
  return result.rows[0]
}

export async function rewardById(q: Queryable, orgId: string, id: string) {
  const result = await q.query<RewardRow>(
    `SELECT ${rewardColumns} FROM loyalty_rewards WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function rewardsOf(q: Queryable, orgId: string, programId: string) {
  const result = await q.query<RewardRow>(
    `SELECT ${rewardColumns} FROM loyalty_rewards WHERE org_id = $1 AND program_id = $2 ORDER BY id`,
    [orgId, programId],
  )
  return result.rows
}

/** Whether the program sells any reward: then a redemption must name one. */
export async function hasActiveRewards(q: Queryable, orgId: string, programId: string): Promise<boolean> {
  const result = await q.query(
    'SELECT 1 FROM loyalty_rewards WHERE org_id = $1 AND program_id = $2 AND active LIMIT 1',
    [orgId, programId],
  )
  return result.rows.length > 0
}

export function updateReward(
  q: Queryable,
  orgId: string,
  id: string,
  w: { name?: string; points?: bigint; amount?: bigint; active?: boolean },
  expected: number | undefined,
) {
  return updateVersioned<RewardRow>(
    q,
    'loyalty_rewards',
    rewardColumns,
    orgId,
    id,
    { name: w.name, points: w.points?.toString(), amount: w.amount?.toString(), active: w.active },
    expected,
  )
}

export async function deleteReward(q: Queryable, orgId: string, programId: string, id: string): Promise<boolean> {
  const result = await q.query(
    'DELETE FROM loyalty_rewards WHERE org_id = $1 AND program_id = $2 AND id = $3 RETURNING id',
    [orgId, programId, id],
  )
  return result.rows.length > 0
}

export async function movementsOf(
  q: Queryable,
  orgId: string,
  memberId: string,
  beforeId: string | null,
  limit: number,
) {
  const result = await q.query<MovementRow>(
    `SELECT ${movementColumns} FROM loyalty_movements
     WHERE org_id = $1 AND member_id = $2 AND ($3::text IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
    [orgId, memberId, beforeId, limit],
  )
  return result.rows
}

export async function insertOrderPoints(
  q: Queryable,
  orgId: string,
  o: { orderId: string; memberId: string; earned: bigint; base: bigint },
) {
  await q.query(
    `INSERT INTO loyalty_order_points (org_id, order_id, member_id, earned, base) VALUES ($1, $2, $3, $4, $5)`,
    [orgId, o.orderId, o.memberId, o.earned.toString(), o.base.toString()],
  )
}

export async function orderPoints(q: Queryable, orgId: string, orderId: string) {
  const result = await q.query<OrderPointsRow>(
    'SELECT member_id, earned, base, reversed, base_reversed FROM loyalty_order_points WHERE org_id = $1 AND order_id = $2',
    [orgId, orderId],
  )
  return result.rows[0]
}

export async function addReversed(q: Queryable, orgId: string, orderId: string, points: bigint, base: bigint) {
  await q.query(
    `UPDATE loyalty_order_points SET reversed = reversed + $3, base_reversed = base_reversed + $4
     WHERE org_id = $1 AND order_id = $2`,
    [orgId, orderId, points.toString(), base.toString()],
  )
}

/** Lots of a member past their expiry that still hold points. */
export async function expiredLots(q: Queryable, orgId: string, memberId: string, at: Date) {
  const result = await q.query<LotRow>(
    `SELECT ${lotColumns} FROM loyalty_lots
     WHERE org_id = $1 AND member_id = $2 AND remaining > 0 AND expires_at <= $3 ORDER BY expires_at, id`,
    [orgId, memberId, at],
  )
  return result.rows
}

export async function membersWithExpiredLots(q: Queryable, at: Date, batch: number) {
  const result = await q.query<ExpiredMemberRow>(
    'SELECT org_id, member_id FROM loyalty_members_with_expired_lots($1, $2)',
    [at, batch],
  )
  return result.rows
}

export async function memberById(q: Queryable, orgId: string, id: string, lock = false) {
  const result = await q.query<MemberRow>(
    `SELECT ${memberSelect('now()')} FROM loyalty_members m WHERE m.org_id = $1 AND m.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

/** Points not yet redeemed or expired, by tier (members of no tier together), for the reports. */
export async function pointsOutstanding(q: Queryable, orgId: string, at: Date) {
  const result = await q.query<OutstandingRow>(
    `SELECT m.tier, count(*) AS members, sum(${liveBalance('$2')}) AS points FROM loyalty_members m
     WHERE m.org_id = $1 GROUP BY m.tier`,
    [orgId, at],
  )
  return result.rows
}
