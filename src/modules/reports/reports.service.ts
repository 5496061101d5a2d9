import { invalid } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { toMajor, toMinor } from '../../platform/money/money.ts'
import { e4ToPercent } from '../../platform/money/percent.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CatalogService } from '../catalog/index.ts'
import type { GiftCardsService } from '../gift-cards/index.ts'
import type { InventoryService } from '../inventory/index.ts'
import type { LoyaltyService } from '../loyalty/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import * as repo from './reports.repo.ts'
import type { InventoryReportQuery, Report, ReportQuery, SalesQuery, StaffQuery } from './reports.schemas.ts'
import type { StaffRow } from './reports.tables.ts'

/** What reports read from other domains: current state that no aggregate holds (docs/reports.md). */
interface ReportsDeps {
  orgs: Pick<OrgsService, 'pricingSettings'>
  products: Pick<CatalogService['products'], 'byIds'>
  variants: Pick<CatalogService['variants'], 'byIds'>
  categories: Pick<CatalogService['categories'], 'get'>
  inventory: Pick<InventoryService, 'onHand'>
  giftCards: Pick<GiftCardsService, 'outstanding'>
  loyalty: Pick<LoyaltyService, 'outstanding'>
  campaigns: Pick<CampaignsService, 'discountsByCampaign'>
  clock?: () => Date
}

const DAY_MS = 86_400_000
/** Ten years of days: more is a mistake, and an expensive one. */
const MAX_DAYS = 3660

const isoDay = (d: Date) => d.toISOString().slice(0, 10)
const sum = (rows: readonly object[], field: string) =>
  rows.reduce((a, r) => a + BigInt(String((r as Record<string, unknown>)[field] ?? 0)), 0n)

export function createReportsService(deps: ReportsDeps) {
  const clock = deps.clock ?? (() => new Date())

  function rangeOf(query: ReportQuery): repo.Range {
    const to = query.to ?? isoDay(clock())
    const from = query.from ?? isoDay(new Date(Date.parse(to) - 29 * DAY_MS))
    const days = (Date.parse(to) - Date.parse(from)) / DAY_MS
    if (days < 0) throw invalid('from', 'must not be after to', 'out_of_range')
    if (days >= MAX_DAYS) throw invalid('from', `must be less than ${MAX_DAYS} days before to`, 'out_of_range')
    return { from, to, locationId: query.location_id ?? null }
  }

  async function frame(ctx: RequestContext, report: string, range: repo.Range | null) {
    const { currency } = await deps.orgs.pricingSettings(ctx)
    const money = (minor: bigint | string | number) => toMajor(minor, currency)
    return {
      money,
      head: {
        report,
        currency,
        ...(range ? { from: range.from, to: range.to } : {}),
        location_id: range?.locationId ?? null,
      },
    }
  }

  /** Gross, discounts, net (total less tax and tips), tax and total, from minor-unit sums. */
  function salesFigures(
    money: (m: bigint) => number,
    s: { gross: bigint; discounts: bigint; tax: bigint; total: bigint; tips?: bigint },
  ) {
    return {
      gross_sales: money(s.gross),
      discounts: money(s.discounts),
      net_sales: money(s.total - s.tax - (s.tips ?? 0n)),
      tax: money(s.tax),
      total: money(s.total),
    }
  }

  const service = {
    /** Sales by day, week, month or location (with the refunds of the same periods), product, category or register. */
    async sales(ctx: RequestContext, query: SalesQuery): Promise<Report> {
      const range = rangeOf(query)
      const by = query.group_by ?? 'day'
      const { money, head } = await frame(ctx, 'sales', range)
      if (by === 'product' || by === 'category') return productOrCategory(ctx, range, by, money, head)
      if (by === 'register') {
        const rows = await ctx.db.read((q) => repo.payments(q, ctx.orgId, range, 'register_id'))
        const out = rows.map((r) => ({
          register_id: r.key === '' ? null : r.key,
          payments: Number(r.payments),
          captured: money(BigInt(r.captured)),
          refunded: money(BigInt(r.refunded)),
          net: money(BigInt(r.captured) - BigInt(r.refunded)),
        }))
        const captured = sum(rows, 'captured')
        const refunded = sum(rows, 'refunded')
        return {
          ...head,
          group_by: by,
          rows: out,
          totals: {
            payments: Number(sum(rows, 'payments')),
            captured: money(captured),
            refunded: money(refunded),
            net: money(captured - refunded),
          },
        }
      }
      const rows = await ctx.db.read((q) =>
        by === 'hour' ? repo.salesByHour(q, ctx.orgId, range) : repo.sales(q, ctx.orgId, range, by),
      )
      const figures = (row: object) => {
        const r = row as Record<string, unknown>
        const s = {
          gross: BigInt(String(r.gross)),
          discounts: BigInt(String(r.discounts)),
          tax: BigInt(String(r.tax)),
          total: BigInt(String(r.total)),
          tips: BigInt(String(r.tips)),
        }
        const refunded = BigInt(String(r.refunded))
        return {
          orders: Number(r.orders),
          ...salesFigures(money, s),
          tips: money(s.tips),
          refunds: Number(r.refunds),
          refunded: money(refunded),
          tips_refunded: money(BigInt(String(r.tips_refunded))),
          total_after_refunds: money(s.total - refunded),
        }
      }
      const keyName = by === 'location' ? 'location_id' : 'period'
      const totals = figures({
        orders: sum(rows, 'orders'),
        gross: sum(rows, 'gross'),
        discounts: sum(rows, 'discounts'),
        tax: sum(rows, 'tax'),
        total: sum(rows, 'total'),
        tips: sum(rows, 'tips'),
        refunds: sum(rows, 'refunds'),
        refunded: sum(rows, 'refunded'),
        tips_refunded: sum(rows, 'tips_refunded'),
      })
      return { ...head, group_by: by, rows: rows.map((r) => ({ [keyName]: r.key, ...figures(r) })), totals }
    },

    async payments(ctx: RequestContext, query: ReportQuery): Promise<Report> {
      const range = rangeOf(query)
      const { money, head } = await frame(ctx, 'payments', range)
      const rows = await ctx.db.read((q) => repo.payments(q, ctx.orgId, range, 'method'))
      const captured = sum(rows, 'captured')
      const refunded = sum(rows, 'refunded')
      return {
        ...head,
        rows: rows.map((r) => ({
          method: r.key,
          payments: Number(r.payments),
          captured: money(BigInt(r.captured)),
          refunded: money(BigInt(r.refunded)),
          net: money(BigInt(r.captured) - BigInt(r.refunded)),
        })),
        totals: {
          payments: Number(sum(rows, 'payments')),
          captured: money(captured),
          refunded: money(refunded),
          net: money(captured - refunded),
        },
      }
    },

    /** Sales, refunds, voids and discounts by member of staff or by register (docs/people-and-settings.md). */
    async staff(ctx: RequestContext, query: StaffQuery): Promise<Report> {
      const range = rangeOf(query)
      const by = query.group_by ?? 'user'
      const { money, head } = await frame(ctx, 'staff', range)
      const rows = await ctx.db.read((q) => repo.staff(q, ctx.orgId, range, by))
      const figures = (r: Record<keyof StaffRow, string | bigint>) => ({
        orders: Number(r.orders),
        sales: money(BigInt(r.total)),
        discounts: money(BigInt(r.discounts)),
        tips: money(BigInt(r.tips)),
        refunds: Number(r.refunds),
        refunded: money(BigInt(r.refunded)),
        voids: Number(r.voids),
        voided: money(BigInt(r.voided)),
      })
      const field = by === 'user' ? 'user_id' : 'register_id'
      const totals = Object.fromEntries(
        (['orders', 'discounts', 'total', 'tips', 'refunds', 'refunded', 'voids', 'voided'] as const).map((f) => [
          f,
          sum(rows, f),
        ]),
      ) as Record<keyof StaffRow, bigint>
      return {
        ...head,
        group_by: by,
        rows: rows.map((r) => ({ [field]: r.key === '' ? null : r.key, ...figures(r) })),
        totals: figures({ ...totals, key: '' }),
      }
    },

    async refunds(ctx: RequestContext, query: ReportQuery): Promise<Report> {
      const range = rangeOf(query)
      const { money, head } = await frame(ctx, 'refunds', range)
      const rows = await ctx.db.read((q) => repo.refunds(q, ctx.orgId, range))
      return {
        ...head,
        rows: rows.map((r) => ({
          day: r.day,
          refunds: Number(r.refunds),
          amount: money(BigInt(r.amount)),
          quantity: Number(r.quantity),
        })),
        totals: {
          refunds: Number(sum(rows, 'refunds')),
          amount: money(sum(rows, 'amount')),
          quantity: Number(sum(rows, 'quantity')),
        },
      }
    },

    async tax(ctx: RequestContext, query: ReportQuery): Promise<Report> {
      const range = rangeOf(query)
      const { money, head } = await frame(ctx, 'tax', range)
      const rows = await ctx.db.read((q) => repo.tax(q, ctx.orgId, range))
      return {
        ...head,
        rows: rows.map((r) => ({
          tax_rate: e4ToPercent(r.tax_rate_e4),
          taxable: money(BigInt(r.taxable)),
          tax: money(BigInt(r.tax)),
        })),
        totals: { taxable: money(sum(rows, 'taxable')), tax: money(sum(rows, 'tax')) },
      }
    },

    async discounts(ctx: RequestContext, query: ReportQuery): Promise<Report> {
      const range = rangeOf(query)
      const { money, head } = await frame(ctx, 'discounts', range)
      const rows = await deps.campaigns.discountsByCampaign(ctx, range)
      return {
        ...head,
        rows: rows.map((r) => ({
          campaign_id: r.campaign_id,
          name: r.name,
          redemptions: r.redemptions,
          orders: r.orders,
          discount: money(r.discount),
          revenue: money(r.revenue),
        })),
        totals: {
          redemptions: rows.reduce((a, r) => a + r.redemptions, 0),
          discount: money(rows.reduce((a, r) => a + r.discount, 0n)),
        },
      }
    },

    /** On hand now, and its value at cost (a variant without a cost of its own takes its product's). */
    async inventory(ctx: RequestContext, query: InventoryReportQuery): Promise<Report> {
      const locationId = query.location_id ?? null
      const { money, head } = await frame(ctx, 'inventory', null)
      const levels = await deps.inventory.onHand(ctx, locationId)
      const [products, variants] = await Promise.all([
        deps.products.byIds(ctx, [...new Set(levels.map((l) => l.productId))]),
        deps.variants.byIds(
          ctx,
          levels.flatMap((l) => (l.variantId ? [l.variantId] : [])),
        ),
      ])
      const productOf = new Map(products.map((p) => [p.id, p]))
      const variantOf = new Map(variants.map((v) => [v.id, v]))
      const { currency } = head
      let value = 0n
      let units = 0
      const rows = levels.map((l) => {
        const product = productOf.get(l.productId)
        const variant = l.variantId ? variantOf.get(l.variantId) : undefined
        const cost = variant?.cost ?? product?.cost ?? null
        const costMinor = cost === null ? null : toMinor(cost, currency, 'cost')
        const lineValue = costMinor === null ? null : costMinor * BigInt(l.onHand)
        if (lineValue !== null) value += lineValue
        units += l.onHand
        return {
          product_id: l.productId,
          variant_id: l.variantId,
          name: variant ? `${product?.name ?? ''} / ${variant.name}` : (product?.name ?? ''),
          on_hand: l.onHand,
          cost,
          value: lineValue === null ? null : money(lineValue),
        }
      })
      return {
        ...head,
        location_id: locationId,
        rows,
        totals: {
          items: rows.length,
          on_hand: units,
          value: money(value),
          items_without_cost: rows.filter((r) => r.cost === null).length,
        },
      }
    },

    async loyalty(ctx: RequestContext): Promise<Report> {
      const { money, head } = await frame(ctx, 'loyalty', null)
      const tiers = await deps.loyalty.outstanding(ctx)
      const rows = tiers.map((o) => ({
        tier: o.tier,
        members: o.members,
        points_outstanding: Number(o.points),
        value: money(o.value),
      }))
      const totals = {
        members: tiers.reduce((n, o) => n + o.members, 0),
        points_outstanding: Number(tiers.reduce((n, o) => n + o.points, 0n)),
        value: money(tiers.reduce((n, o) => n + o.value, 0n)),
      }
      return { ...head, rows, totals }
    },

    async giftCards(ctx: RequestContext): Promise<Report> {
      const { money, head } = await frame(ctx, 'gift_cards', null)
      const o = await deps.giftCards.outstanding(ctx)
      const row = { cards: o.cards, balance_outstanding: money(o.balance) }
      return { ...head, rows: [row], totals: row }
    },

    /** Every aggregate of the caller's org computed again from the orders, refunds and payments. */
    async rebuild(ctx: RequestContext): Promise<void> {
      await ctx.db.tx((q) => repo.rebuild(q))
    },
  }

  async function productOrCategory(
    ctx: RequestContext,
    range: repo.Range,
    by: 'product' | 'category',
    money: (m: bigint) => number,
    head: Omit<Report, 'rows' | 'totals'>,
  ): Promise<Report> {
    const rows = await ctx.db.read((q) => repo.productSales(q, ctx.orgId, range))
    const products = new Map(
      (
        await deps.products.byIds(
          ctx,
          rows.map((r) => r.product_id),
        )
      ).map((p) => [p.id, p]),
    )
    const big = (r: object, f: string) => BigInt(String((r as Record<string, unknown>)[f]))
    const totals = {
      quantity: Number(sum(rows, 'quantity')),
      ...salesFigures(money, {
        gross: sum(rows, 'gross'),
        discounts: sum(rows, 'discounts'),
        tax: sum(rows, 'tax'),
        total: sum(rows, 'total'),
      }),
    }
    if (by === 'product') {
      return {
        ...head,
        group_by: by,
        rows: rows.map((r) => ({
          product_id: r.product_id,
          name: products.get(r.product_id)?.name ?? '',
          category_id: products.get(r.product_id)?.category_id ?? null,
          quantity: Number(r.quantity),
          ...salesFigures(money, {
            gross: big(r, 'gross'),
            discounts: big(r, 'discounts'),
            tax: big(r, 'tax'),
            total: big(r, 'total'),
          }),
        })),
        totals,
      }
    }
    // Categories as products have them now (a product moved to another category moves its history with it).
    const byCategory = new Map<
      string,
      { quantity: bigint; gross: bigint; discounts: bigint; tax: bigint; total: bigint }
    >()
    for (const r of rows) {
      const key = products.get(r.product_id)?.category_id ?? ''
      const acc = byCategory.get(key) ?? { quantity: 0n, gross: 0n, discounts: 0n, tax: 0n, total: 0n }
      for (const f of ['quantity', 'gross', 'discounts', 'tax', 'total'] as const) acc[f] += big(r, f)
      byCategory.set(key, acc)
    }
    const names = new Map(
      await Promise.all(
        [...byCategory.keys()]
          .filter((id) => id !== '')
          .map(async (id) => [id, (await deps.categories.get(ctx, id).catch(() => ({ name: '' }))).name] as const),
      ),
    )
    return {
      ...head,
      group_by: by,
      rows: [...byCategory]
        .sort((a, b) => (a[1].total > b[1].total ? -1 : a[1].total < b[1].total ? 1 : 0))
        .map(([id, s]) => ({
          category_id: id === '' ? null : id,
          name: id === '' ? 'Uncategorised' : (names.get(id) ?? ''),
          quantity: Number(s.quantity),
          ...salesFigures(money, s),
        })),
      totals,
    }
  }

  return service
}

export type ReportsService = ReturnType<typeof createReportsService>
