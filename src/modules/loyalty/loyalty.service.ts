import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, encodeCursor, type Page, toPage } from '../../platform/http/pagination.ts'
import { allocate, currencyExponent, formatMoney, toMajor, toMinor, toScaled } from '../../platform/money/money.ts'
import { recordAudit } from '../audit/index.ts'
import { LoyaltyErrors } from './loyalty.errors.ts'
import * as repo from './loyalty.repo.ts'
import {
  E4,
  nextTier,
  pointsFor,
  pointsForShare,
  pointsToTakeBack,
  type Tier,
  takeFromLots,
  tierAt,
} from './loyalty.rules.ts'
import type {
  AccrueBody,
  CreateProgramBody,
  CreateRewardBody,
  JoinBody,
  LoyaltyReward,
  Member,
  MemberQuery,
  Movement,
  Program,
  ProgramListQuery,
  RedeemBody,
  Reward,
  TierInput,
  UpdateProgramBody,
  UpdateRewardBody,
} from './loyalty.schemas.ts'
import type { MemberRow, MovementRow, ProgramRow, RewardRow } from './loyalty.tables.ts'

/** What loyalty needs from the domains below it (services.ts wires them). */
interface LoyaltyDeps {
  orgs: { pricingSettings(ctx: RequestContext): Promise<{ currency: string }> }
  customers: {
    assertExists(ctx: RequestContext, id: string, field: string): Promise<void>
    setLoyaltyMemberId(ctx: RequestContext, customerId: string, memberId: string): Promise<void>
  }
  /** The categories of products, for programs that exclude categories. */
  catalog: { categoriesOf(ctx: RequestContext, productIds: readonly string[]): Promise<Map<string, string | null>> }
  clock?: () => Date
}

/** What a reward asked for gives and costs, before anything is taken (flows/redeem-reward.ts). */
export type RedemptionPrice =
  | { type: 'voucher'; rewardId: string; campaignId: string; points: bigint; name: string }
  | {
      type: 'order_discount'
      rewardId: string | null
      orderId: string
      /** The most it takes off the order (minor units). */
      worth: bigint
      /** The points charged for what the order took (minor units). */
      pointsFor(applied: bigint): bigint
      /** The order discount's reason. */
      discountReason(applied: bigint): string
      /** The movement's reason, "redeemed for …". */
      describe(applied: bigint): string
      /** What the order took, in the answer's major units. */
      amount(applied: bigint): number
    }

/** A redemption's answer: the member after it, its movement and what the reward gave. */
export type Redemption = { member: Member; movement: Movement; reward: Reward }

/** What an order tells loyalty when it completes. */
interface CompletedOrder {
  id: string
  customerId: string | null
  currency: string
  /** What the customer paid for each line, net of tax, after discounts (minor units). */
  lines: readonly { productId: string; spent: bigint }[]
  /** Campaigns' points multipliers on this order, multiplied together (× 10,000; 10000 when none). */
  pointsMultiplierE4: bigint
}

const DAY_MS = 86_400_000

/** A member as its events carry it: the answer's fields but its history. */
type MemberCore = Omit<Member, 'history' | 'history_pagination'>

function tiersOf(p: ProgramRow): Tier[] {
  return p.tiers.map((t) => ({
    name: t.name,
    threshold: BigInt(t.threshold),
    multiplierE4: BigInt(t.multiplier_e4),
    benefits: t.benefits,
  }))
}

function toProgram(row: ProgramRow, currency: string): Program {
  const exp = currencyExponent(currency)
  const spendBasis = row.tier_basis === 'lifetime_spend'
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    points_per_unit: Number(row.points_per_unit_e4) / 10_000,
    rounding: row.rounding,
    excluded_product_ids: row.excluded_product_ids,
    excluded_category_ids: row.excluded_category_ids,
    expiry_days: row.expiry_days,
    auto_enroll: row.auto_enroll,
    point_value: Number(row.point_value_e4) / 10_000 / 10 ** exp,
    tier_basis: row.tier_basis,
    tiers: row.tiers.map((t) => ({
      name: t.name,
      threshold: spendBasis ? toMajor(t.threshold, currency) : Number(t.threshold),
      multiplier: Number(t.multiplier_e4) / 10_000,
      benefits: t.benefits,
    })),
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

function toReward(row: RewardRow, currency: string): LoyaltyReward {
  return {
    id: row.id,
    program_id: row.program_id,
    name: row.name,
    points: Number(row.points),
    gives:
      row.kind === 'order_discount'
        ? { type: 'order_discount', amount: toMajor(BigInt(row.amount ?? 0), currency) }
        : { type: 'voucher', campaign_id: row.campaign_id ?? '' },
    active: row.active,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

function toMovement(row: MovementRow): Movement {
  return {
    id: row.id,
    kind: row.kind,
    points: Number(row.points),
    balance_after: Number(row.balance_after),
    reason: row.reason,
    order_id: row.order_id,
    reward: row.reward,
    created_at: row.created_at.toISOString(),
  }
}

function storedTiers(input: readonly TierInput[], basis: ProgramRow['tier_basis'], currency: string) {
  const names = new Set<string>()
  return input.map((t, i) => {
    if (names.has(t.name.toLowerCase())) throw LoyaltyErrors.invalidTier(`tiers.${i}.name`, 'repeats a tier name')
    names.add(t.name.toLowerCase())
    const threshold =
      basis === 'lifetime_spend'
        ? toMinor(t.threshold, currency, `tiers.${i}.threshold`)
        : toScaled(t.threshold, 0, `tiers.${i}.threshold`)
    return {
      name: t.name,
      threshold: threshold.toString(),
      multiplier_e4: toScaled(t.multiplier ?? 1, 4, `tiers.${i}.multiplier`).toString(),
      benefits: t.benefits ?? [],
    }
  })
}

export function createLoyaltyService(deps: LoyaltyDeps) {
  const clock = deps.clock ?? (() => new Date())

  async function currencyOf(ctx: RequestContext) {
    return (await deps.orgs.pricingSettings(ctx)).currency
  }

  function memberView(m: MemberRow, program: ProgramRow, currency: string): MemberCore {
    const tiers = tiersOf(program)
    const value = BigInt(program.tier_basis === 'lifetime_points' ? m.lifetime_points : m.lifetime_spend)
    const held = tiers.find((t) => t.name === m.tier) ?? null
    const next = nextTier(tiers, value)
    const amount = (v: bigint) => (program.tier_basis === 'lifetime_spend' ? toMajor(v, currency) : Number(v))
    return {
      id: m.id,
      customer_id: m.customer_id,
      program_id: m.program_id,
      balance: Number(m.balance),
      lifetime_points: Number(m.lifetime_points),
      lifetime_spend: toMajor(m.lifetime_spend, currency),
      tier: held ? { name: held.name, multiplier: Number(held.multiplierE4) / 10_000, benefits: held.benefits } : null,
      next_tier: next
        ? { name: next.tier.name, threshold: amount(next.tier.threshold), remaining: amount(next.remaining) }
        : null,
      joined_at: m.joined_at.toISOString(),
    }
  }

  async function programOf(q: Queryable, ctx: RequestContext, id: string) {
    const row = await repo.programById(q, ctx.orgId, id)
    if (!row) throw notFound('loyalty program')
    return row
  }

  async function activeOrRefuse(q: Queryable, ctx: RequestContext) {
    const program = await repo.activeProgram(q, ctx.orgId)
    if (!program) throw LoyaltyErrors.NO_ACTIVE_PROGRAM('the org has no active loyalty program')
    return program
  }

  /** The member of a customer, joined now when asked to; joining sets the customer's loyalty_member_id. */
  async function memberFor(
    q: Queryable,
    ctx: RequestContext,
    program: ProgramRow,
    customerId: string,
    join: boolean,
  ): Promise<{ member: MemberRow; joined: boolean } | null> {
    const at = clock()
    const found = await repo.memberByCustomer(q, ctx.orgId, customerId, at, true)
    if (found) return { member: await expireLocked(q, ctx, found, at), joined: false }
    if (!join) return null
    const id = newId('lmb')
    // A member holds the program's base tier (the one reached with nothing) from the moment they join.
    const baseTier = tierAt(tiersOf(program), 0n)?.name ?? null
    const made = await repo.insertMember(q, ctx.orgId, id, customerId, program.id, baseTier)
    // A concurrent join of the same customer won: lock theirs.
    if (!made) return { member: (await repo.memberByCustomer(q, ctx.orgId, customerId, at, true))!, joined: false }
    await deps.customers.setLoyaltyMemberId(ctx, customerId, id)
    return { member: made, joined: true }
  }

  /** A new lot of points for a member, expiring as the program's points do. */
  async function addLot(q: Queryable, ctx: RequestContext, program: ProgramRow, memberId: string, points: bigint) {
    await repo.insertLot(q, ctx.orgId, {
      id: newId('llt'),
      memberId,
      points,
      expiresAt: program.expiry_days ? new Date(clock().getTime() + program.expiry_days * DAY_MS) : null,
    })
  }

  /** Expires a locked member's lots past their expiry, writing one expiry movement per lot. */
  async function expireLocked(q: Queryable, ctx: RequestContext, m: MemberRow, at: Date): Promise<MemberRow> {
    const due = await repo.expiredLots(q, ctx.orgId, m.id, at)
    if (due.length === 0) return m
    const lost = due.reduce((a, l) => a + BigInt(l.remaining), 0n)
    await repo.takeFromLots(
      q,
      ctx.orgId,
      due.map((l) => ({ id: l.id, take: BigInt(l.remaining) })),
    )
    const moved = await repo.moveMember(q, ctx.orgId, m.id, {
      balance: -lost,
      lifetimePoints: 0n,
      lifetimeSpend: 0n,
      tier: m.tier,
    })
    // The stored balance before this expiry, less each lot in turn.
    let balance = BigInt(moved.balance) + lost
    for (const l of due) {
      balance -= BigInt(l.remaining)
      await repo.insertMovement(q, ctx.orgId, {
        id: newId('lmv'),
        memberId: m.id,
        kind: 'expiry',
        points: -BigInt(l.remaining),
        balanceAfter: balance,
        reason: `points earned before ${l.expires_at?.toISOString().slice(0, 10)} expired`,
        orderId: null,
        reward: null,
      })
    }
    return moved
  }

  /**
   * Moves a locked member's points and lifetime totals, re-evaluates its tier and writes the movement and the
   * events: loyalty.points_earned (points added), loyalty.points_redeemed, loyalty.tier_changed.
   */
  async function record(
    q: Queryable,
    ctx: RequestContext,
    program: ProgramRow,
    member: MemberRow,
    change: {
      kind: MovementRow['kind']
      points: bigint
      lifetimePoints: bigint
      lifetimeSpend: bigint
      reason: string
      orderId: string | null
      reward: object | null
      reverses?: string
    },
  ): Promise<{ member: MemberCore; movement: Movement }> {
    const currency = await currencyOf(ctx)
    const basis = program.tier_basis === 'lifetime_points' ? 'lifetime_points' : 'lifetime_spend'
    const nextValue =
      BigInt(member[basis]) + (basis === 'lifetime_points' ? change.lifetimePoints : change.lifetimeSpend)
    const tier = tierAt(tiersOf(program), nextValue)?.name ?? null
    const moved = await repo.moveMember(q, ctx.orgId, member.id, {
      balance: change.points,
      lifetimePoints: change.lifetimePoints,
      lifetimeSpend: change.lifetimeSpend,
      tier,
    })
    const movement = toMovement(
      await repo.insertMovement(q, ctx.orgId, {
        id: newId('lmv'),
        memberId: member.id,
        kind: change.kind,
        points: change.points,
        balanceAfter: BigInt(moved.balance),
        reason: change.reason,
        orderId: change.orderId,
        reward: change.reward,
        reverses: change.reverses,
      }),
    )
    const view = memberView(moved, program, currency)
    if (change.points > 0n) await emitEvent(q, ctx.orgId, 'loyalty.points_earned', { ...view, movement })
    if (change.kind === 'redemption') await emitEvent(q, ctx.orgId, 'loyalty.points_redeemed', { ...view, movement })
    if (tier !== member.tier) {
      await emitEvent(q, ctx.orgId, 'loyalty.tier_changed', { ...view, previous_tier: member.tier })
    }
    return { member: view, movement }
  }

  async function withHistory(ctx: RequestContext, q: Queryable, core: MemberCore, query: MemberQuery): Promise<Member> {
    const beforeId = afterIdOf(query.cursor)
    const rows = await repo.movementsOf(q, ctx.orgId, core.id, beforeId ?? null, query.limit + 1)
    const page = rows.slice(0, query.limit)
    const hasMore = rows.length > query.limit
    return {
      ...core,
      history: page.map(toMovement),
      history_pagination: { nextCursor: hasMore ? encodeCursor([page[page.length - 1].id]) : null, hasMore },
    }
  }

  const service = {
    async listPrograms(ctx: RequestContext, query: ProgramListQuery): Promise<Page<Program>> {
      const afterId = afterIdOf(query.cursor)
      const [currency, rows] = await Promise.all([
        currencyOf(ctx),
        ctx.db.read((q) => repo.listPrograms(q, ctx.orgId, afterId ?? null, query.limit + 1)),
      ])
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toProgram(r, currency),
      )
    },

    async getProgram(ctx: RequestContext, id: string): Promise<Program> {
      const [currency, row] = await Promise.all([currencyOf(ctx), ctx.db.read((q) => programOf(q, ctx, id))])
      return toProgram(row, currency)
    },

    async createProgram(ctx: RequestContext, input: CreateProgramBody): Promise<Program> {
      const currency = await currencyOf(ctx)
      const basis = input.tier_basis ?? 'lifetime_points'
      const write: Required<repo.ProgramWrite> = {
        name: input.name,
        status: input.status ?? 'active',
        pointsPerUnitE4: toScaled(input.points_per_unit ?? 1, 4, 'points_per_unit'),
        rounding: input.rounding ?? 'floor',
        excludedProductIds: input.excluded_product_ids ?? [],
        excludedCategoryIds: input.excluded_category_ids ?? [],
        expiryDays: input.expiry_days ?? null,
        autoEnroll: input.auto_enroll ?? true,
        pointValueE4: toScaled(input.point_value ?? 0, currencyExponent(currency) + 4, 'point_value'),
        tierBasis: basis,
        tiers: storedTiers(input.tiers ?? [], basis, currency),
      }
      return ctx.db.tx(async (q) => {
        if (write.status === 'active' && (await repo.activeProgram(q, ctx.orgId))) {
          throw LoyaltyErrors.ACTIVE_PROGRAM_EXISTS('the org already has an active program: deactivate it first')
        }
        return toProgram(await repo.insertProgram(q, ctx.orgId, newId('lpr'), write), currency)
      })
    },

    async updateProgram(
      ctx: RequestContext,
      id: string,
      input: Omit<UpdateProgramBody, 'version'>,
      expectedVersion: number | undefined,
    ): Promise<Program> {
      const currency = await currencyOf(ctx)
      return ctx.db.tx(async (q) => {
        const current = await programOf(q, ctx, id)
        if (expectedVersion !== undefined && current.version !== expectedVersion) throw staleVersion(current.version)
        const basis = input.tier_basis ?? current.tier_basis
        if (input.tier_basis && input.tier_basis !== current.tier_basis && !input.tiers && current.tiers.length) {
          throw LoyaltyErrors.invalidTier('tiers', 'must be given again when tier_basis changes')
        }
        if (input.status === 'active' && current.status !== 'active' && (await repo.activeProgram(q, ctx.orgId))) {
          throw LoyaltyErrors.ACTIVE_PROGRAM_EXISTS('the org already has an active program: deactivate it first')
        }
        const row = await repo.updateProgram(
          q,
          ctx.orgId,
          id,
          {
            name: input.name,
            status: input.status,
            pointsPerUnitE4:
              input.points_per_unit === undefined ? undefined : toScaled(input.points_per_unit, 4, 'points_per_unit'),
            rounding: input.rounding,
            excludedProductIds: input.excluded_product_ids,
            excludedCategoryIds: input.excluded_category_ids,
            expiryDays: input.expiry_days,
            autoEnroll: input.auto_enroll,
            pointValueE4:
              input.point_value === undefined
                ? undefined
                : toScaled(input.point_value, currencyExponent(currency) + 4, 'point_value'),
            tierBasis: input.tier_basis,
            tiers: input.tiers === undefined ? undefined : storedTiers(input.tiers, basis, currency),
          },
          undefined,
        )
        if (!row) throw notFound('loyalty program')
        return toProgram(row, currency)
      })
    },

    /** An explicit join: 201 with the new member, or the existing one (created false). */
    async join(ctx: RequestContext, input: JoinBody) {
      await deps.customers.assertExists(ctx, input.customer_id, 'customer_id')
      const currency = await currencyOf(ctx)
      return ctx.db.tx(async (q) => {
        const program = await activeOrRefuse(q, ctx)
        const { member, joined } = (await memberFor(q, ctx, program, input.customer_id, true))!
        const core = memberView(member, program, currency)
        return { member: await withHistory(ctx, q, core, { limit: 50 }), created: joined }
      })
    },

    /** Balance, tier, lifetime totals, progress to the next tier and a page of the points history. */
    async member(ctx: RequestContext, customerId: string, query: MemberQuery): Promise<Member> {
      const currency = await currencyOf(ctx)
      return ctx.db.read(async (q) => {
        const member = await repo.memberByCustomer(q, ctx.orgId, customerId, clock())
        if (!member) throw notFound('loyalty member')
        const program = await programOf(q, ctx, member.program_id)
        return withHistory(ctx, q, memberView(member, program, currency), query)
      })
    },

    async accrue(ctx: RequestContext, input: AccrueBody) {
      await deps.customers.assertExists(ctx, input.customer_id, 'customer_id')
      return ctx.db.tx(async (q) => {
        const program = await activeOrRefuse(q, ctx)
        const { member } = (await memberFor(q, ctx, program, input.customer_id, true))!
        const points = BigInt(input.points)
        await addLot(q, ctx, program, member.id, points)
        const done = await record(q, ctx, program, member, {
          kind: 'adjustment',
          points,
          lifetimePoints: points,
          lifetimeSpend: 0n,
          reason: input.reason,
          orderId: null,
          reward: null,
        })
        await recordAudit(q, ctx, {
          action: 'loyalty.points_adjusted',
          record: { type: 'loyalty_member', id: member.id },
          changes: { customer_id: input.customer_id, points: input.points, reason: input.reason ?? '' },
        })
        return { ...done, member: await withHistory(ctx, q, done.member, { limit: 50 }) }
      })
    },

    /**
     * A redemption's first step (flows/redeem-reward.ts): what the reward asked for gives and costs. A program that
     * prices rewards charges the named reward's price (an amount off an order takes only the share of it the
     * order's total leaves room for); a program that prices none takes at most the points asked, as an amount off
     * an order, and only those its discount uses (docs/loyalty.md "Rewards").
     */
    async priceRedemption(ctx: RequestContext, input: RedeemBody): Promise<RedemptionPrice> {
      const currency = await currencyOf(ctx)
      if (input.reward_id !== undefined && (input.points !== undefined || input.reward !== undefined))
        throw invalid('reward_id', 'name a reward, or give points and reward, not both', 'conflicting')
      if (input.reward_id === undefined && (input.points === undefined || input.reward === undefined))
        throw invalid('reward_id', 'name the reward to redeem', 'required')
      if (input.reward_id === undefined && input.order_id !== undefined)
        throw invalid('order_id', 'goes with reward_id; with points, the order is reward.order_id', 'conflicting')
      if (input.reward?.type === 'voucher')
        throw invalid(
          'reward.type',
          'a voucher is redeemed as a priced reward of the program: name it with reward_id',
          'priced_reward_required',
        )
      return ctx.db.read(async (q) => {
        const program = await activeOrRefuse(q, ctx)
        const priced = input.reward_id === undefined ? null : await repo.rewardById(q, ctx.orgId, input.reward_id)
        if (input.reward_id !== undefined && (!priced || priced.program_id !== program.id || !priced.active))
          throw notFound('loyalty reward')
        if (!priced && (await repo.hasActiveRewards(q, ctx.orgId, program.id)))
          throw invalid('reward_id', 'the program prices its rewards: name one with reward_id', 'required')
        if (priced?.kind === 'voucher')
          return {
            type: 'voucher',
            rewardId: priced.id,
            campaignId: priced.campaign_id ?? '',
            points: BigInt(priced.points),
            name: priced.name,
          }
        const orderId = priced
          ? input.order_id
          : input.reward?.type === 'order_discount'
            ? input.reward.order_id
            : undefined
        if (!orderId) throw invalid('order_id', 'an amount off an order needs the order', 'required')
        // What the reward is worth at most: its amount, or the points asked at point_value each.
        const worth = priced
          ? BigInt(priced.amount ?? 0)
          : (BigInt(input.points ?? 0) * BigInt(program.point_value_e4)) / E4
        if (worth <= 0n) throw LoyaltyErrors.NOTHING_TO_REDEEM('these points are worth nothing off an order')
        // Only the points the discount uses: the reward's price for its share taken, or the points it is worth.
        const pointsFor = (applied: bigint) =>
          priced
            ? pointsForShare(BigInt(priced.points), applied, worth)
            : pointsForShare(E4, applied, BigInt(program.point_value_e4))
        return {
          type: 'order_discount',
          rewardId: priced?.id ?? null,
          orderId,
          worth,
          pointsFor,
          discountReason: (applied) => (priced ? priced.name : `${pointsFor(applied)} loyalty points`),
          describe: (applied) => (priced ? priced.name : `${formatMoney(applied, currency)} off an order`),
          amount: (applied) => toMajor(applied, currency),
        }
      })
    },

    /**
     * A redemption's last step, in the flow's transaction: takes the points, oldest-expiring first, under the
     * member's row lock: concurrent redemptions wait for each other, and one that finds too few points left is a
     * 409 (INSUFFICIENT_POINTS).
     */
    async chargeRedemption(
      ctx: RequestContext,
      input: RedeemBody,
      charge: { points: bigint; what: string; reward: Reward },
    ): Promise<Redemption> {
      const { points, reward } = charge
      return ctx.db.tx(async (q) => {
        const program = await activeOrRefuse(q, ctx)
        const found = await memberFor(q, ctx, program, input.customer_id, false)
        if (!found) throw notFound('loyalty member')
        const { member } = found
        const taken = takeFromLots(
          (await repo.liveLots(q, ctx.orgId, member.id)).map((l) => ({ id: l.id, remaining: BigInt(l.remaining) })),
          points,
        )
        if (!taken) throw LoyaltyErrors.INSUFFICIENT_POINTS(`the member has ${member.balance} points, not ${points}`)
        await repo.takeFromLots(q, ctx.orgId, taken)
        const done = await record(q, ctx, program, member, {
          kind: 'redemption',
          points: -points,
          lifetimePoints: 0n,
          lifetimeSpend: 0n,
          reason: input.reason ?? `redeemed for ${charge.what}`,
          orderId: reward.order_id ?? null,
          reward,
        })
        return { ...done, member: await withHistory(ctx, q, done.member, { limit: 50 }), reward }
      })
    },

    /**
     * In a voiding order's transaction: gives back the points redeemed on it, each redemption once (a `reversal`
     * movement names it), as a new lot that expires as the program's points do.
     */
    async returnRedemptions(ctx: RequestContext, orderId: string): Promise<void> {
      return ctx.db.tx(async (q) => {
        for (const redemption of await repo.openRedemptionsOfOrder(q, ctx.orgId, orderId)) {
          const member = await expireLocked(
            q,
            ctx,
            (await repo.memberById(q, ctx.orgId, redemption.member_id, true))!,
            clock(),
          )
          const program = await programOf(q, ctx, member.program_id)
          const points = BigInt(redemption.points)
          await addLot(q, ctx, program, member.id, points)
          await record(q, ctx, program, member, {
            kind: 'reversal',
            points,
            lifetimePoints: 0n,
            lifetimeSpend: 0n,
            reason: 'order voided: the redeemed points are given back',
            orderId,
            reward: redemption.reward,
            reverses: redemption.id,
          })
        }
      })
    },

    async listRewards(ctx: RequestContext, programId: string): Promise<LoyaltyReward[]> {
      const currency = await currencyOf(ctx)
      return ctx.db.read(async (q) => {
        await programOf(q, ctx, programId)
        return (await repo.rewardsOf(q, ctx.orgId, programId)).map((r) => toReward(r, currency))
      })
    },

    async createReward(ctx: RequestContext, programId: string, input: CreateRewardBody): Promise<LoyaltyReward> {
      const currency = await currencyOf(ctx)
      const { gives } = input
      return ctx.db.tx(async (q) => {
        await programOf(q, ctx, programId)
        const row = await repo.insertReward(q, ctx.orgId, {
          id: newId('lrw'),
          programId,
          name: input.name.trim(),
          points: BigInt(input.points),
          kind: gives.type,
          amount: gives.type === 'order_discount' ? toMinor(gives.amount, currency, 'gives.amount') : null,
          campaignId: gives.type === 'voucher' ? gives.campaign_id : null,
          active: input.active ?? true,
        })
        return toReward(row, currency)
      })
    },

    async updateReward(
      ctx: RequestContext,
      programId: string,
      rewardId: string,
      input: Omit<UpdateRewardBody, 'version'>,
      expected: number | undefined,
    ): Promise<LoyaltyReward> {
      const currency = await currencyOf(ctx)
      return ctx.db.tx(async (q) => {
        const current = await repo.rewardById(q, ctx.orgId, rewardId)
        if (!current || current.program_id !== programId) throw notFound('loyalty reward')
        if (input.amount !== undefined && current.kind !== 'order_discount')
          throw invalid('amount', 'only an order_discount reward has an amount', 'invalid')
        const row = await repo.updateReward(
          q,
          ctx.orgId,
          rewardId,
          {
            name: input.name?.trim(),
            points: input.points === undefined ? undefined : BigInt(input.points),
            amount: input.amount === undefined ? undefined : toMinor(input.amount, currency, 'amount'),
            active: input.active,
          },
          expected,
        )
        if (!row) throw staleVersion(current.version)
        return toReward(row, currency)
      })
    },

    /** Deletes a reward; redemptions made keep what they were (each movement holds its reward). */
    async deleteReward(ctx: RequestContext, programId: string, rewardId: string): Promise<void> {
      if (!(await ctx.db.tx((q) => repo.deleteReward(q, ctx.orgId, programId, rewardId))))
        throw notFound('loyalty reward')
    },

    /**
     * In a completing order's transaction: the points it earns its customer (joining them when the program
     * says so), with the tier's multiplier and the campaigns' one; answers the points for loyalty_points_earned.
     */
    async accrueForOrder(ctx: RequestContext, order: CompletedOrder): Promise<number> {
      const customerId = order.customerId
      if (!customerId) return 0
      return ctx.db.tx(async (q) => {
        const program = await repo.activeProgram(q, ctx.orgId)
        if (!program) return 0
        const excluded = new Set(program.excluded_product_ids)
        let lines = order.lines.filter((l) => !excluded.has(l.productId))
        if (program.excluded_category_ids.length && lines.length) {
          const categories = await deps.catalog.categoriesOf(
            ctx,
            lines.map((l) => l.productId),
          )
          const out = new Set(program.excluded_category_ids)
          lines = lines.filter((l) => !out.has(categories.get(l.productId) ?? ''))
        }
        const spent = lines.reduce((a, l) => a + l.spent, 0n)
        const found = await memberFor(q, ctx, program, customerId, program.auto_enroll)
        if (!found) return 0
        const { member } = found
        const tier = tiersOf(program).find((t) => t.name === member.tier)
        const multiplier = ((tier?.multiplierE4 ?? E4) * order.pointsMultiplierE4) / E4
        const points = pointsFor(
          spent,
          order.currency,
          BigInt(program.points_per_unit_e4),
          multiplier,
          program.rounding,
        )
        await repo.insertOrderPoints(q, ctx.orgId, {
          orderId: order.id,
          memberId: member.id,
          earned: points,
          base: spent,
        })
        if (points > 0n) {
          await addLot(q, ctx, program, member.id, points)
        }
        await record(q, ctx, program, member, {
          kind: 'accrual',
          points,
          lifetimePoints: points,
          lifetimeSpend: spent,
          reason: 'order completed',
          orderId: order.id,
          reward: null,
        })
        return Number(points)
      })
    },

    /**
     * After a refund settles: takes back the refunded share of what the order earned, newest points first. Points
     * already spent cannot be taken back; the movement says how many were missing (docs/loyalty.md).
     */
    async reverseForRefund(
      ctx: RequestContext,
      refund: { orderId: string; refundedTotal: bigint; orderTotal: bigint },
    ): Promise<void> {
      return ctx.db.tx(async (q) => {
        const earned = await repo.orderPoints(q, ctx.orgId, refund.orderId)
        if (!earned) return
        const due = pointsToTakeBack(
          BigInt(earned.earned),
          BigInt(earned.reversed),
          refund.refundedTotal,
          refund.orderTotal,
        )
        const spendBack = pointsToTakeBack(
          BigInt(earned.base),
          BigInt(earned.base_reversed),
          refund.refundedTotal,
          refund.orderTotal,
        )
        if (due <= 0n && spendBack <= 0n) return
        const member = await expireLocked(
          q,
          ctx,
          (await repo.memberById(q, ctx.orgId, earned.member_id, true))!,
          clock(),
        )
        const program = await programOf(q, ctx, member.program_id)
        const lots = (await repo.liveLots(q, ctx.orgId, member.id, true)).map((l) => ({
          id: l.id,
          remaining: BigInt(l.remaining),
        }))
        const available = lots.reduce((a, l) => a + l.remaining, 0n)
        const take = due < available ? due : available
        await repo.takeFromLots(q, ctx.orgId, takeFromLots(lots, take)!)
        await repo.addReversed(q, ctx.orgId, refund.orderId, due, spendBack)
        const short = due - take
        await record(q, ctx, program, member, {
          kind: 'refund',
          points: -take,
          lifetimePoints: -due,
          lifetimeSpend: -spendBack,
          reason: short > 0n ? `order refunded; ${short} points were already spent` : 'order refunded',
          orderId: refund.orderId,
          reward: null,
        })
      })
    },

    /** For reports: members, points not yet redeemed or expired, and what they are worth off orders (minor units). */
    async outstanding(ctx: RequestContext) {
      const at = clock()
      return ctx.db.read(async (q) => {
        const [rows, program] = await Promise.all([
          repo.pointsOutstanding(q, ctx.orgId, at),
          repo.activeProgram(q, ctx.orgId),
        ])
        // Tiers from the lowest threshold up, members of none last.
        const rank = (tier: string | null) => {
          const found = (program?.tiers ?? []).find((t) => t.name === tier)
          return found ? Number(found.threshold) : Number.POSITIVE_INFINITY
        }
        const tiers = [...rows].sort((a, b) => rank(a.tier) - rank(b.tier))
        // The whole rounded down once, shared over the tiers by largest remainder, so the rows add up to it.
        const e4 = tiers.map((row) => BigInt(row.points ?? 0) * BigInt(program?.point_value_e4 ?? 0))
        const values = allocate(e4.reduce((a, v) => a + v, 0n) / 10_000n, e4)
        return tiers.map((row, i) => ({
          tier: row.tier,
          members: Number(row.members),
          points: BigInt(row.points ?? 0),
          value: values[i],
        }))
      })
    },

    /** For campaigns' tier conditions: the customer's tier name, or null. */
    async tierOf(ctx: RequestContext, customerId: string): Promise<string | null> {
      const member = await ctx.db.read((q) => repo.memberByCustomer(q, ctx.orgId, customerId, clock()))
      return member?.tier ?? null
    },

    /** Expires one member's due lots, in its org's scope (the expiry job). */
    async expireMember(ctx: RequestContext, memberId: string, at: Date): Promise<void> {
      await ctx.db.tx(async (q) => {
        const member = await repo.memberById(q, ctx.orgId, memberId, true)
        if (member) await expireLocked(q, ctx, member, at)
      })
    },

    /** For the deprecated rewards endpoint and reports: a customer's balance and tier, or null. */
    async summaryOf(ctx: RequestContext, customerId: string) {
      const member = await ctx.db.read((q) => repo.memberByCustomer(q, ctx.orgId, customerId, clock()))
      return member ? { memberId: member.id, balance: Number(member.balance), tier: member.tier } : null
    },
  }
  return service
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>
