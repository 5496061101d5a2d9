import { KeptUnderCatalogVersion } from '../../platform/cache/index.ts'
import { newId } from '../../platform/crypto/ids.ts'
import { maskedCode } from '../../platform/crypto/masked-code.ts'
import { readableCode } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { toMajor } from '../../platform/money/money.ts'
import { localClock } from '../../platform/time/local-clock.ts'
import { changedFields, recordAudit } from '../audit/index.ts'
import { compileCampaign } from './campaigns.compile.ts'
import { CampaignErrors, claimErrors } from './campaigns.errors.ts'
import * as repo from './campaigns.repo.ts'
import {
  type Application,
  applyCampaigns,
  type CampaignDef,
  type CartLine,
  type PresentedVoucher,
  type Skip,
  statusAt,
} from './campaigns.rules.ts'
import type {
  Campaign,
  CampaignListQuery,
  CampaignStats,
  Conditions,
  CreateCampaignBody,
  CreateVouchersBody,
  RuleInput,
  UpdateCampaignBody,
  Voucher,
  VoucherListQuery,
} from './campaigns.schemas.ts'
import type { CampaignRow, CampaignStatus, KeyedVoucherRow, VoucherRow } from './campaigns.tables.ts'

/** What campaigns need from other domains (services.ts wires them). */
interface CampaignsDeps {
  orgs: { pricingSettings(ctx: RequestContext): Promise<{ currency: string }> }
  locations: { timezoneOf(ctx: RequestContext, locationId: string): Promise<string | null> }
  customers: { tagsOf(ctx: RequestContext, customerId: string): Promise<string[]> }
  clock?: () => Date
}

/** What pricing learns about campaigns for one cart. */
export interface CampaignPricing {
  applications: Application[]
  skipped: Skip[]
  /** The vouchers the till presented. */
  presented: PresentedVoucher[]
}

/** Orgs whose live campaigns are kept per process. */
const KEPT_ORGS = 10_000

/** What a campaign.updated audit entry records: every field a manager sets (not the counters time moves). */
const AUDITED_FIELDS = [
  'name',
  'description',
  'status',
  'priority',
  'stacking',
  'stacking_class',
  'starts_at',
  'ends_at',
  'conditions',
  'rules',
  'requires_voucher',
  'usage_limit',
  'per_customer_limit',
] as const

/** The explicit moves of docs/decisions.md's table; time moves (start, end) are settle()'s. */
const MOVES: Record<CampaignStatus, readonly CampaignStatus[]> = {
  draft: ['scheduled'],
  scheduled: ['active'],
  active: ['paused', 'ended'],
  paused: ['active'],
  ended: [],
}

type StoredRule = RuleInput & { id: string }

const iso = (d: Date | null) => (d ? d.toISOString() : null)

function toCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    priority: row.priority,
    stacking: row.stacking,
    stacking_class: row.stacking_class,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    conditions: row.conditions as Conditions,
    rules: row.rules as StoredRule[],
    requires_voucher: row.requires_voucher,
    usage_limit: row.usage_limit,
    usage_count: row.usage_count,
    per_customer_limit: row.per_customer_limit,
    version: row.version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

function toVoucher(row: VoucherRow): Voucher {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    code: row.code,
    max_uses: row.max_uses,
    uses: row.uses,
    customer_id: row.customer_id,
    created_at: row.created_at.toISOString(),
  }
}

/** Rules keep the id they were given when it is one of theirs already; new ones get one. */
function withRuleIds(rules: readonly RuleInput[], current: readonly StoredRule[] = []): StoredRule[] {
  const known = new Set(current.map((r) => r.id))
  return rules.map((r) => ({ ...r, id: r.id && known.has(r.id) ? r.id : newId('crl') }))
}

const date = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value)

/** The order whose campaign uses are claimed. */
interface ClaimingOrder {
  id: string
  locationId: string
  customerId: string | null
  currency: string
  total: bigint
}

/** A campaign the order used: the voucher presented for it, if any, and what it took off. */
interface CampaignUse {
  campaignId: string
  voucher: { id: string; code: string } | null
  discount: bigint
}

const claimedUses = (order: ClaimingOrder, uses: readonly CampaignUse[]): repo.ClaimedUses => ({
  orderId: order.id,
  locationId: order.locationId,
  customerId: order.customerId,
  currency: order.currency,
  orderTotal: order.total,
  claims: uses.map((u) => ({
    redemption_id: newId('crd'),
    campaign_id: u.campaignId,
    voucher_id: u.voucher?.id ?? null,
    discount: u.discount.toString(),
  })),
})

/** `campaign.voucher_redeemed` for each use that came with a voucher, sent at once. */
function voucherEvents(q: Queryable, ctx: RequestContext, order: ClaimingOrder, uses: readonly CampaignUse[]) {
  return Promise.all(
    uses.flatMap((u) =>
      u.voucher
        ? [
            emitEvent(q, ctx.orgId, 'campaign.voucher_redeemed', {
              campaign_id: u.campaignId,
              voucher_id: u.voucher.id,
              code: u.voucher.code,
              order_id: order.id,
              customer_id: order.customerId,
              discount: toMajor(u.discount, order.currency),
            }),
          ]
        : [],
    ),
  )
}

export function createCampaignsService(deps: CampaignsDeps) {
  const clock = deps.clock ?? (() => new Date())
  const kept = new KeptUnderCatalogVersion<CampaignDef[]>(KEPT_ORGS)
  /** A row's fields that status arithmetic needs. */
  const toDef = (row: CampaignRow) => ({ status: row.status, startsAt: row.starts_at, endsAt: row.ends_at })

  /** Refuses a campaign that cannot work: money too precise, percentages out of range, an end before its start. */
  function check(row: CampaignRow, currency: string): void {
    compileCampaign(row, currency)
    if (row.starts_at && row.ends_at && row.ends_at <= row.starts_at) {
      throw invalid('ends_at', 'must be after starts_at', 'out_of_range')
    }
    if (row.usage_limit !== null && row.usage_limit < row.usage_count) {
      throw invalid('usage_limit', `is below the ${row.usage_count} uses already counted`, 'out_of_range')
    }
  }

  /**
   * Applies the moves that time has made (a start or an end that passed) to a locked row, with their events: the
   * job does it for every campaign, and a PATCH first, so a request never acts on a status time has overtaken.
   */
  async function settle(q: Queryable, ctx: RequestContext, row: CampaignRow, now: Date): Promise<CampaignRow> {
    const status = statusAt(toDef(row), now)
    if (status === row.status) return row
    const moved = await repo.updateCampaign(q, ctx.orgId, row.id, { status }, undefined)
    if (!moved) throw notFound('campaign')
    const view = toCampaign(moved)
    if (row.status === 'scheduled') await emitEvent(q, ctx.orgId, 'campaign.started', view)
    if (status === 'ended') await emitEvent(q, ctx.orgId, 'campaign.ended', view)
    return moved
  }

  async function liveDefs(ctx: RequestContext): Promise<CampaignDef[]> {
    const key = kept.keyOf(ctx)
    const hit = kept.get(key)
    if (hit) return hit
    const [{ currency }, rows] = await Promise.all([
      deps.orgs.pricingSettings(ctx),
      ctx.db.read((q) => repo.liveCampaigns(q, ctx.orgId)),
    ])
    const defs = rows.map((r) => compileCampaign(r, currency))
    kept.set(key, defs)
    return defs
  }

  async function load(q: Queryable, ctx: RequestContext, id: string, lock = false): Promise<CampaignRow> {
    const row = await repo.campaignById(q, ctx.orgId, id, lock)
    if (!row) throw notFound('campaign')
    return row
  }

  const service = {
    async list(ctx: RequestContext, query: CampaignListQuery): Promise<Page<Campaign>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listCampaigns(q, ctx.orgId, {
          afterId: afterId ?? null,
          status: query.status ?? null,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toCampaign)
    },

    async get(ctx: RequestContext, id: string): Promise<Campaign> {
      return toCampaign(await ctx.db.read((q) => load(q, ctx, id)))
    },

    async create(ctx: RequestContext, input: CreateCampaignBody): Promise<Campaign> {
      const { currency } = await deps.orgs.pricingSettings(ctx)
      const now = clock()
      // Created active: a scheduled campaign that starts now (it settles to active, with campaign.started).
      const active = input.status === 'active'
      const startsAt = date(input.starts_at)
      if (active && startsAt && startsAt > now)
        throw invalid(
          'starts_at',
          'is later than now: create the campaign as scheduled to start it then',
          'conflicting',
        )
      return ctx.db.tx(async (q) => {
        const id = newId('cmp')
        const write: Required<repo.CampaignWrite> = {
          name: input.name,
          description: input.description ?? '',
          status: active ? 'scheduled' : (input.status ?? 'draft'),
          priority: input.priority ?? 0,
          stacking: input.stacking ?? 'stackable',
          stackingClass: input.stacking_class ?? 'default',
          startsAt: startsAt ?? (active ? now : null),
          endsAt: date(input.ends_at) ?? null,
          conditions: input.conditions ?? {},
          rules: withRuleIds(input.rules),
          requiresVoucher: input.requires_voucher ?? false,
          usageLimit: input.usage_limit ?? null,
          perCustomerLimit: input.per_customer_limit ?? null,
        }
        const draft = { ...preview(write), id, org_id: ctx.orgId }
        check(draft, currency)
        const row = await repo.insertCampaign(q, ctx.orgId, id, write)
        await recordAudit(q, ctx, {
          action: 'campaign.created',
          record: { type: 'campaign', id },
          changes: { name: write.name, status: write.status, rules: input.rules.length },
        })
        return toCampaign(await settle(q, ctx, row, now))
      })
    },

    /** PATCH: fields, and a status move of the table; time's own moves are applied first and after. */
    async update(
      ctx: RequestContext,
      id: string,
      input: UpdateCampaignBody,
      expectedVersion: number | undefined,
    ): Promise<Campaign> {
      const { currency } = await deps.orgs.pricingSettings(ctx)
      const now = clock()
      return ctx.db.tx(async (q) => {
        const locked = await load(q, ctx, id, true)
        if (expectedVersion !== undefined && locked.version !== expectedVersion) throw staleVersion(locked.version)
        const row = await settle(q, ctx, locked, now)
        if (row.status === 'ended') throw CampaignErrors.ENDED('an ended campaign cannot change')
        const write: repo.CampaignWrite = {
          name: input.name,
          description: input.description,
          priority: input.priority,
          stacking: input.stacking,
          stackingClass: input.stacking_class,
          startsAt: date(input.starts_at),
          endsAt: date(input.ends_at),
          conditions: input.conditions,
          rules: input.rules ? withRuleIds(input.rules, row.rules as StoredRule[]) : undefined,
          requiresVoucher: input.requires_voucher,
          usageLimit: input.usage_limit,
          perCustomerLimit: input.per_customer_limit,
        }
        const to = input.status
        if (to !== undefined && to !== row.status) {
          if (!MOVES[row.status].includes(to)) {
            throw CampaignErrors.ILLEGAL_MOVE(`a ${row.status} campaign cannot become ${to}`)
          }
          write.status = to
          // Activating a scheduled campaign starts it now; ending one ends it now.
          if (row.status === 'scheduled' && to === 'active') write.startsAt = now
          if (to === 'ended' && (!row.ends_at || row.ends_at > now)) write.endsAt = now
        }
        check({ ...row, ...preview(write, row) }, currency)
        const updated = await repo.updateCampaign(q, ctx.orgId, id, write, undefined)
        if (!updated) throw notFound('campaign')
        const view = toCampaign(updated)
        const changes = changedFields(toCampaign(row), view, AUDITED_FIELDS)
        if (Object.keys(changes).length > 0)
          await recordAudit(q, ctx, { action: 'campaign.updated', record: { type: 'campaign', id }, changes })
        if (write.status === 'active' && row.status === 'scheduled') {
          await emitEvent(q, ctx.orgId, 'campaign.started', view)
        }
        if (write.status === 'ended') await emitEvent(q, ctx.orgId, 'campaign.ended', view)
        return toCampaign(await settle(q, ctx, updated, now))
      })
    },

    async stats(ctx: RequestContext, id: string): Promise<CampaignStats> {
      const [{ currency: orgCurrency }, s] = await Promise.all([
        deps.orgs.pricingSettings(ctx),
        ctx.db.read(async (q) => {
          await load(q, ctx, id)
          return repo.stats(q, ctx.orgId, id)
        }),
      ])
      const currency = s.currency ?? orgCurrency
      return {
        campaign_id: id,
        currency,
        redemptions: Number(s.redemptions),
        voucher_redemptions: Number(s.voucher_redemptions),
        orders: Number(s.orders),
        discount_given: toMajor(s.discount_given ?? 0, currency),
        revenue: toMajor(s.revenue ?? 0, currency),
        unique_customers: Number(s.unique_customers),
      }
    },

    /** One chosen code, or `count` generated ones; a chosen code already in use in the org is a 409. */
    async createVouchers(ctx: RequestContext, campaignId: string, input: CreateVouchersBody): Promise<Voucher[]> {
      if (input.code !== undefined && input.count !== undefined && input.count !== 1) {
        throw invalid('count', 'must be 1 (or absent) when a code is chosen', 'conflicting_fields')
      }
      return ctx.db.tx(async (q) => {
        const row = await load(q, ctx, campaignId)
        if (row.status === 'ended') throw CampaignErrors.ENDED('an ended campaign cannot get vouchers')
        const wanted = input.code ? 1 : (input.count ?? 1)
        const made: VoucherRow[] = []
        // Generated codes have ~59 bits: a clash is next to impossible, and a retry makes up for one.
        for (let attempt = 0; attempt < 3 && made.length < wanted; attempt++) {
          const batch = Array.from({ length: wanted - made.length }, () => ({
            id: newId('vch'),
            code: input.code ?? readableCode(12),
            maxUses: input.max_uses ?? 1,
            customerId: input.customer_id ?? null,
          }))
          made.push(...(await repo.insertVouchers(q, ctx.orgId, campaignId, batch)))
          if (input.code && made.length === 0) throw CampaignErrors.VOUCHER_CODE_TAKEN('this code is already in use')
        }
        await recordAudit(q, ctx, {
          action: 'campaign.vouchers_issued',
          record: { type: 'campaign', id: campaignId },
          changes: { count: made.length, max_uses: input.max_uses ?? 1 },
        })
        return made.map(toVoucher)
      })
    },

    async listVouchers(ctx: RequestContext, campaignId: string, query: VoucherListQuery): Promise<Page<Voucher>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read(async (q) => {
        await load(q, ctx, campaignId)
        return repo.listVouchers(q, ctx.orgId, campaignId, afterId ?? null, query.limit + 1)
      })
      // Whole codes are for those who may make them; a reader sees them masked.
      const whole = ctx.scopes.has('campaigns:write')
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => {
          const voucher = toVoucher(r)
          return whole ? voucher : { ...voucher, code: maskedCode(voucher.code) }
        },
      )
    },

    /** For automations' rule checks. */
    async exists(ctx: RequestContext, id: string): Promise<boolean> {
      return Boolean(await ctx.db.read((q) => repo.campaignById(q, ctx.orgId, id)))
    },

    /** For loyalty and automations: one single-use voucher of a campaign for one customer. */
    /**
     * Whether the campaign runs now or is scheduled to (its status as time has moved it: a scheduled one past its
     * end is ended), for rewards that issue its vouchers. A campaign not of the org is a 404.
     */
    async runsOrWillRun(ctx: RequestContext, id: string): Promise<boolean> {
      const row = await ctx.db.read((q) => load(q, ctx, id))
      const status = statusAt(toDef(row), clock())
      return status === 'active' || status === 'scheduled'
    },

    async issueVoucher(ctx: RequestContext, campaignId: string, customerId: string): Promise<Voucher> {
      const [voucher] = await service.createVouchers(ctx, campaignId, {
        count: 1,
        max_uses: 1,
        customer_id: customerId,
      })
      return voucher
    },

    /**
     * For pricing: everything a cart's campaigns need that is not in the cart, read at once (the live campaigns
     * are kept per process); answers the function that prices a cart's lines.
     */
    async prepare(
      ctx: RequestContext,
      input: {
        locationId: string
        customerId: string | null
        voucherCodes: readonly string[]
        /** The request field of each code, for a refusal (`voucher_codes.N` by default). */
        voucherFields?: readonly string[]
        at?: Date
        /**
         * The customer's loyalty tier, which loyalty knows (the price-sale flow gives it): read only when a live
         * campaign is for some tiers.
         */
        tierOf?: () => Promise<string | null>
      },
    ): Promise<(lines: readonly CartLine[], currency: string) => CampaignPricing> {
      const at = input.at ?? clock()
      // Kept per process: a sale of an org without campaigns reads nothing more.
      const defs = await liveDefs(ctx)
      if (defs.length === 0 && input.voucherCodes.length === 0) {
        return () => ({ applications: [], skipped: [], presented: [] })
      }
      const live = defs.filter((d) => statusAt(d, at) === 'active')
      const limited = live.filter((d) => d.usageLimit !== null).map((d) => d.id)
      const customerId = input.customerId
      const needs = (test: (d: CampaignDef) => unknown) => customerId !== null && live.some(test)
      // What the cart's campaigns need besides the cart, read at once (one round trip on the request's connection).
      const [timezone, vouchers, usage, tags, tier, uses] = await Promise.all([
        deps.locations.timezoneOf(ctx, input.locationId),
        input.voucherCodes.length
          ? ctx.db.read((q) =>
              repo.vouchersByCode(
                q,
                ctx.orgId,
                input.voucherCodes.map((c) => c.toUpperCase()),
              ),
            )
          : [],
        limited.length ? ctx.db.read((q) => repo.usageCounts(q, ctx.orgId, limited)) : [],
        needs((d) => d.conditions.tags) ? deps.customers.tagsOf(ctx, customerId!) : [],
        needs((d) => d.conditions.tiers) ? (input.tierOf?.() ?? null) : null,
        needs((d) => d.perCustomerLimit !== null)
          ? ctx.db.read((q) => repo.customerUses(q, ctx.orgId, customerId!))
          : [],
      ])
      const presented = presentVouchers(input.voucherCodes, input.voucherFields, vouchers, live)
      const counts = new Map(usage.map((u) => [u.id, u.usage_count]))
      const current = live.map((d) => (counts.has(d.id) ? { ...d, usageCount: counts.get(d.id)! } : d))
      return (lines, currency) => {
        const { applications, skipped } = applyCampaigns(current, {
          currency,
          lines,
          locationId: input.locationId,
          at,
          local: localClock(at, timezone ?? 'UTC'),
          customer:
            customerId === null
              ? null
              : { id: customerId, tags, tier, uses: new Map(uses.map((u) => [u.campaign_id, u.uses])) },
          vouchers: new Map(presented.map((v) => [v.campaignId, v])),
        })
        return { applications, skipped, presented }
      }
    },

    /**
     * The campaign uses of a sale a till made offline (docs/sync.md), in the caller's transaction: counted like any
     * sale's where the limits allow, never refused. Answers the limits it went past (a voucher used up, a campaign's
     * or a customer's limit reached, a campaign or voucher unknown), each left uncounted, for the sale's conflicts.
     */
    async claimOffline(
      q: Queryable,
      ctx: RequestContext,
      order: ClaimingOrder,
      uses: readonly { campaignId: string; voucherCode: string | null; discount: bigint }[],
    ): Promise<{ campaignId: string; code: string }[]> {
      if (uses.length === 0) return []
      const codes = uses.flatMap((u) => (u.voucherCode ? [u.voucherCode.toUpperCase()] : []))
      const vouchers = new Map(
        (codes.length ? await repo.vouchersByCode(q, ctx.orgId, codes) : []).map((v) => [v.code_key, v]),
      )
      const unknown: { campaignId: string; code: string }[] = []
      const used = uses.map((u) => {
        const found = u.voucherCode ? vouchers.get(u.voucherCode.toUpperCase()) : undefined
        const voucher = found?.campaign_id === u.campaignId ? { id: found.id, code: found.code } : null
        if (u.voucherCode && !voucher) unknown.push({ campaignId: u.campaignId, code: 'unknown_voucher' })
        return { campaignId: u.campaignId, voucher, discount: u.discount }
      })
      const past = (await repo.claim(q, claimedUses(order, used), false)).map((p) => ({
        campaignId: p.campaign_id,
        code: p.code,
      }))
      // A voucher counted is redeemed, as at the till; one past its uses is only a conflict.
      const usedUp = new Set(past.filter((p) => p.code === 'voucher_used_up').map((p) => p.campaignId))
      await voucherEvents(
        q,
        ctx,
        order,
        used.filter((u) => !usedUp.has(u.campaignId)),
      )
      return [...unknown, ...past]
    },

    /**
     * In the order's transaction: counts the order's campaign uses under their limits, records each redemption
     * and the vouchers' events. A limit reached since pricing is a 409 and the order is not made.
     */
    async claim(ctx: RequestContext, order: ClaimingOrder, applications: readonly Application[]): Promise<void> {
      const byCampaign = new Map<string, { voucher: PresentedVoucher | null; discount: bigint }>()
      for (const a of applications) {
        const seen = byCampaign.get(a.campaignId)
        byCampaign.set(a.campaignId, { voucher: a.voucher, discount: (seen?.discount ?? 0n) + a.amount })
      }
      if (byCampaign.size === 0) return
      const used = [...byCampaign].map(([campaignId, c]) => ({ campaignId, ...c }))
      // Joins the order's transaction without waiting: the claim goes out in the order's pipeline.
      await ctx.db.tx(async (q) => {
        const claimed = repo.claim(q, claimedUses(order, used), true).catch((error) => {
          const refused = repo.claimRefusal(error)
          if (!refused) throw error
          const make = claimErrors[refused.code]
          throw make
            ? make(`${refusalText[refused.code] ?? 'a campaign limit was reached'}; calculate the order again`)
            : error
        })
        // Sent together (one round trip); a refused claim aborts the events too, so its error is the one to answer.
        const events = voucherEvents(q, ctx, order, used)
        events.catch(() => {})
        await claimed
        await events
      })
    },

    /** For reports: discount given by campaign over a range of local days. */
    async discountsByCampaign(ctx: RequestContext, range: { from: string; to: string; locationId: string | null }) {
      const rows = await ctx.db.read((q) => repo.discountsByCampaign(q, ctx.orgId, range))
      return rows.map((r) => ({
        campaign_id: r.campaign_id,
        name: r.name,
        redemptions: Number(r.redemptions),
        orders: Number(r.orders),
        discount: BigInt(r.discount),
        revenue: BigInt(r.revenue),
      }))
    },

    /** In a voiding order's transaction: its campaign uses are given back, once. */
    release(ctx: RequestContext, orderId: string): Promise<number> {
      return ctx.db.tx((q) => repo.release(q, orderId))
    },

    settle,
  }

  /**
   * The presented codes as vouchers of live campaigns; an unknown code, one of a campaign that is not active and
   * two of one campaign are 422s naming the code's place in `voucher_codes`.
   */
  function presentVouchers(
    codes: readonly string[],
    fields: readonly string[] | undefined,
    rows: readonly KeyedVoucherRow[],
    live: readonly CampaignDef[],
  ): PresentedVoucher[] {
    if (codes.length === 0) return []
    const byKey = new Map(rows.map((r) => [r.code_key, r]))
    const liveIds = new Set(live.map((d) => d.id))
    const seen = new Set<string>()
    return codes.map((code, i) => {
      const row = byKey.get(code.toUpperCase())
      const field = fields?.[i] ?? `voucher_codes.${i}`
      if (!row) throw invalid(field, 'is not a voucher of this org', 'unknown_voucher')
      if (!liveIds.has(row.campaign_id))
        throw invalid(field, 'belongs to a campaign that is not active', 'voucher_inactive')
      if (seen.has(row.campaign_id))
        throw invalid(field, 'is a second voucher of the same campaign', 'duplicate_voucher')
      seen.add(row.campaign_id)
      return {
        id: row.id,
        code: row.code,
        campaignId: row.campaign_id,
        usesLeft: row.max_uses - row.uses,
        customerId: row.customer_id,
      }
    })
  }

  return service
}

const refusalText: Record<string, string> = {
  VOUCHER_USED_UP: 'the voucher was used up meanwhile',
  CAMPAIGN_USAGE_LIMIT_REACHED: "the campaign's usage limit was reached meanwhile",
  CAMPAIGN_CUSTOMER_LIMIT_REACHED: "the customer's limit for this campaign was reached meanwhile",
}

/** The stored row a write would give, for checking before it is written. */
function preview(w: repo.CampaignWrite, base?: CampaignRow): Omit<CampaignRow, 'id' | 'org_id'> {
  const pick = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value)
  return {
    name: pick(w.name, base?.name ?? ''),
    description: pick(w.description, base?.description ?? ''),
    status: pick(w.status, base?.status ?? 'draft'),
    priority: pick(w.priority, base?.priority ?? 0),
    stacking: pick(w.stacking, base?.stacking ?? 'stackable'),
    stacking_class: pick(w.stackingClass, base?.stacking_class ?? 'default'),
    starts_at: pick(w.startsAt, base?.starts_at ?? null),
    ends_at: pick(w.endsAt, base?.ends_at ?? null),
    conditions: pick(w.conditions, base?.conditions ?? {}),
    rules: pick(w.rules, base?.rules ?? []),
    requires_voucher: pick(w.requiresVoucher, base?.requires_voucher ?? false),
    usage_limit: pick(w.usageLimit, base?.usage_limit ?? null),
    usage_count: base?.usage_count ?? 0,
    per_customer_limit: pick(w.perCustomerLimit, base?.per_customer_limit ?? null),
    version: base?.version ?? 1,
    created_at: base?.created_at ?? new Date(),
    updated_at: base?.updated_at ?? new Date(),
  }
}

export type CampaignsService = ReturnType<typeof createCampaignsService>
