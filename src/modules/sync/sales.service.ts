import pMap from 'p-map'
import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { isUniqueViolation, retriedOnDeadlock } from '../../platform/db/errors.ts'
import { AppError, invalid } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { toMinor } from '../../platform/money/money.ts'
import { percentToE4 } from '../../platform/money/percent.ts'
import { recordAudit } from '../audit/index.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CatalogService, QuotedLine } from '../catalog/index.ts'
import type { CustomersService } from '../customers/index.ts'
import type { GiftCardsService } from '../gift-cards/index.ts'
import type { InventoryService } from '../inventory/index.ts'
import { type Completion, type Order, type OrdersService, type PricedOrder, stockChangesOf } from '../orders/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import type { PaymentsService } from '../payments/index.ts'
import type { RegistersService } from '../registers/index.ts'
import * as conflictsRepo from './conflicts.repo.ts'
import type { OfflineSale, SaleResult } from './sync.schemas.ts'

/** How old a sale a till may still send (docs/sync.md). */
const MAX_SALE_AGE_DAYS = 7
/** How far ahead of the server's clock a till's may run. */
const CLOCK_SKEW_MS = 5 * 60_000
/**
 * How many of a batch's sales are recorded at once, each in its own transaction on its own connection: while one
 * waits on the database the next is checked and written, so the app's and the database's work overlap
 * (docs/benchmarks.md "Offline sales, two at a time, and what a completed sale costs the database").
 */
const SALES_AT_ONCE = 2

interface SalesDeps {
  orgs: Pick<OrgsService, 'pricingSettings'>
  catalog: Pick<CatalogService, 'products' | 'variants' | 'bundles' | 'pricing'>
  orders: Pick<OrdersService, 'recordOffline' | 'recordedSales' | 'claimTillNumber' | 'reserveTillNumbers'>
  /** The order with its payments (the order-detail flow). */
  orderDetail(ctx: RequestContext, orderId: string): Promise<Order>
  /** A sale paid in full completes: its points accrue, order.completed (the complete-sale flow). */
  completeSale(ctx: RequestContext, completion: Completion): Promise<Order>
  payments: Pick<PaymentsService, 'recordOffline'>
  giftCards: Pick<GiftCardsService, 'redeemUpTo'>
  campaigns: Pick<CampaignsService, 'claimOffline'>
  inventory: Pick<InventoryService, 'applyChanges'>
  registers: Pick<RegistersService, 'getRegister' | 'getShift'>
  customers: Pick<CustomersService, 'assertExists'>
  /** The ids of the org's staff a till may name as having sold. */
  staff: (ctx: RequestContext) => Promise<Set<string>>
}

/** What every sale of one batch shares, read once: the store's pricing settings, the till's location, the org's
 * staff, the items sold. */
interface Batch {
  settings: Awaited<ReturnType<SalesDeps['orgs']['pricingSettings']>>
  locationId: string
  staff: Set<string>
  items: Awaited<ReturnType<typeof itemsOf>>
}

/** The products and variants the batch's lines name (the org's, in whatever state), and what bundles draw down. */
async function itemsOf(ctx: RequestContext, catalog: SalesDeps['catalog'], sales: readonly OfflineSale[]) {
  const lines = sales.flatMap((s) => s.lines)
  const products = new Map(
    (await catalog.products.byIds(ctx, [...new Set(lines.map((l) => l.product_id))])).map((p) => [p.id, p]),
  )
  const variantIds = [...new Set(lines.flatMap((l) => (l.variant_id ? [l.variant_id] : [])))]
  const variants = new Map((await catalog.variants.byIds(ctx, variantIds)).map((v) => [v.id, v]))
  const bundles = await catalog.bundles.componentsOf(ctx, [...products.keys()])
  return { products, variants, bundles }
}

interface Conflict {
  code: string
  message: string
  details?: object
}

type Tender = {
  method: 'cash' | 'external' | 'gift_card' | 'card'
  token?: string
  id: string
  amount: bigint
  tip: bigint
  cashTendered: bigint | null
  giftCardCode: string | null
  giftCardId?: string | null
}

/** A sale checked and turned into what the order module records. */
interface Prepared {
  soldAt: Date
  locationId: string
  priced: PricedOrder
  tenders: Tender[]
  total: bigint
  /** The campaigns the till applied, by id, with the voucher given and what each took off. */
  campaignUses: { campaignId: string; voucherCode: string | null; discount: bigint }[]
  conflicts: Conflict[]
  soldBy: string | null
  shiftId: string | null
  customerId: string | null
}

const doesNotAddUp = (field: string, message: string) => invalid(field, message, 'does_not_add_up')
const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n)

/**
 * Sales a till made offline (docs/sync.md), each recorded once by its `client_sale_id` as the till made it: its
 * figures are checked to add up, never re-priced; what does not match the server (a price, the stock, the staff or
 * shift it names, a balance left due) is recorded as a conflict, not refused. One transaction per sale.
 */
export function createOfflineSalesService(deps: SalesDeps) {
  async function prepare(ctx: RequestContext, batch: Batch, sale: OfflineSale, at: string): Promise<Prepared> {
    const field = (f: string) => `${at}.${f}`
    const { settings } = batch
    const currency = settings.currency
    const minor = (value: number, f: string, allowNegative = false) =>
      toMinor(value, currency, field(f), { allowNegative })
    const soldAt = new Date(sale.sold_at)
    const now = Date.now()
    if (soldAt.getTime() > now + CLOCK_SKEW_MS)
      throw invalid(field('sold_at'), 'is in the future by the server’s clock', 'out_of_range')
    if (soldAt.getTime() < now - MAX_SALE_AGE_DAYS * 86_400_000)
      throw invalid(field('sold_at'), `is older than ${MAX_SALE_AGE_DAYS} days`, 'too_old')
    const { locationId } = batch

    // The items: the org's, in whatever state (an item archived since was still sold).
    const { products, variants, bundles } = batch.items

    const quoted: QuotedLine[] = []
    const lineTotals: PricedOrder['totals']['lines'] = []
    const rates: number[] = []
    const unitPrices: bigint[] = []
    sale.lines.forEach((l, i) => {
      const f = `lines.${i}`
      const product = products.get(l.product_id)
      if (!product) throw invalid(field(`${f}.product_id`), 'does not name a product of this org', 'not_found')
      const variant = l.variant_id ? variants.get(l.variant_id) : undefined
      if (l.variant_id && variant?.product_id !== product.id)
        throw invalid(field(`${f}.variant_id`), 'does not name a variant of this product', 'not_found')
      const unit = minor(l.unit_price, `${f}.unit_price`)
      const subtotal = minor(l.line_subtotal, `${f}.line_subtotal`)
      const discount = minor(l.line_discount, `${f}.line_discount`)
      const tax = minor(l.line_tax, `${f}.line_tax`)
      const total = minor(l.line_total, `${f}.line_total`)
      if (subtotal !== unit * BigInt(l.quantity))
        throw doesNotAddUp(field(`${f}.line_subtotal`), 'is not unit_price × quantity')
      if (discount > subtotal) throw doesNotAddUp(field(`${f}.line_discount`), 'is more than the line')
      if (total !== subtotal - discount + (settings.prices_include_tax ? 0n : tax))
        throw doesNotAddUp(
          field(`${f}.line_total`),
          settings.prices_include_tax
            ? 'is not line_subtotal less line_discount (prices include tax)'
            : 'is not line_subtotal less line_discount plus line_tax',
        )
      const rateE4 = percentToE4(l.tax_rate)
      if (rateE4 === null) throw invalid(field(`${f}.tax_rate`), 'has more than 4 decimals', 'too_precise')
      const components = bundles.get(product.id)
      quoted.push({
        productId: product.id,
        variantId: variant?.id ?? null,
        quantity: l.quantity,
        name: variant ? `${product.name} (${variant.name})` : product.name,
        sku: variant?.sku ?? product.sku,
        categoryId: product.category_id,
        basePrice: unit,
        unitPrice: unit,
        priceListId: null,
        markdownId: null,
        modifiers: (l.modifiers ?? []).map((m, j) => ({
          id: m.id,
          groupId: m.group_id ?? '',
          name: m.name,
          // A modifier may take off the price ("no cheese"); the unit price, checked above, stays at zero or more.
          priceAdjustment: minor(m.price_adjustment, `${f}.modifiers.${j}.price_adjustment`, true),
        })),
        ...(components ? { components } : {}),
        tracked: components ? components.length > 0 : product.track_inventory && (variant?.track_inventory ?? true),
        soldOut: false,
      })
      unitPrices.push(unit)
      rates.push(rateE4)
      lineTotals.push({ lineSubtotal: subtotal, lineDiscount: discount, lineTax: tax, lineTotal: total })
    })

    const tip = minor(sale.tip ?? 0, 'tip')
    const subtotal = sum(lineTotals.map((l) => l.lineSubtotal))
    const discountTotal = sum(lineTotals.map((l) => l.lineDiscount))
    const taxTotal = sum(lineTotals.map((l) => l.lineTax))
    const linesTotal = sum(lineTotals.map((l) => l.lineTotal))
    if (minor(sale.subtotal, 'subtotal') !== subtotal) throw doesNotAddUp(field('subtotal'), 'is not the lines’ sum')
    if (minor(sale.discount_total, 'discount_total') !== discountTotal)
      throw doesNotAddUp(field('discount_total'), 'is not the lines’ discounts summed')
    if (minor(sale.tax_total, 'tax_total') !== taxTotal) throw doesNotAddUp(field('tax_total'), 'is not the lines’ tax')
    if (minor(sale.total, 'total') !== linesTotal + tip)
      throw doesNotAddUp(field('total'), 'is not the lines’ totals plus the tip')
    const discounts = (sale.discounts ?? []).map((d, i) => ({ ...d, minor: minor(d.amount, `discounts.${i}.amount`) }))
    if (discounts.length && sum(discounts.map((d) => d.minor)) !== discountTotal)
      throw doesNotAddUp(field('discounts'), 'do not add up to discount_total')

    const tenders: Tender[] = sale.payments.map((t, i) => ({
      method: t.method as Tender['method'],
      id: newId('pay'),
      amount: minor(t.amount, `payments.${i}.amount`),
      tip: minor(t.tip ?? 0, `payments.${i}.tip`),
      cashTendered: t.cash_tendered === undefined ? null : minor(t.cash_tendered, `payments.${i}.cash_tendered`),
      giftCardCode: t.gift_card_code ?? null,
      ...(t.payment_method_token ? { token: t.payment_method_token } : {}),
    }))
    tenders.forEach((t, i) => {
      if (t.cashTendered !== null && (t.method !== 'cash' || t.cashTendered < t.amount))
        throw invalid(field(`payments.${i}.cash_tendered`), 'is for cash, and at least the amount', 'out_of_range')
      if (t.method === 'gift_card' && !t.giftCardCode)
        throw invalid(field(`payments.${i}.gift_card_code`), 'is required for a gift card', 'required')
      if (t.method === 'card' && !t.token)
        throw invalid(field(`payments.${i}.payment_method_token`), 'is required for a card', 'required')
    })
    if (sum(tenders.map((t) => t.amount)) > linesTotal + tip)
      throw doesNotAddUp(field('payments'), 'take more than the total (change is cash_tendered)')
    tenders.forEach((t, i) => {
      if (t.tip > t.amount) throw doesNotAddUp(field(`payments.${i}.tip`), 'is more than its payment')
    })
    if (sum(tenders.map((t) => t.tip)) > tip)
      throw doesNotAddUp(field('payments'), 'carry more tip than the sale’s tip')

    const conflicts: Conflict[] = []
    const soldBy = sale.sold_by && batch.staff.has(sale.sold_by) ? sale.sold_by : null
    if (sale.sold_by && !soldBy)
      conflicts.push({
        code: 'unknown_staff',
        message: `${sale.sold_by} is no user of this org`,
        details: { user_id: sale.sold_by },
      })
    let shiftId = sale.shift_id ?? null
    if (shiftId && !(await exists(() => deps.registers.getShift(ctx, shiftId!)))) {
      conflicts.push({
        code: 'unknown_shift',
        message: `${shiftId} is no shift of this org`,
        details: { shift_id: shiftId },
      })
      shiftId = null
    }
    let customerId = sale.customer_id ?? null
    if (customerId && !(await exists(() => deps.customers.assertExists(ctx, customerId!, 'customer_id')))) {
      conflicts.push({
        code: 'unknown_customer',
        message: `${customerId} is no customer of this org`,
        details: { customer_id: customerId },
      })
      customerId = null
    }
    conflicts.push(...(await priceConflicts(ctx, quoted, locationId, soldAt)))

    return {
      soldAt,
      locationId,
      tenders,
      total: linesTotal + tip,
      campaignUses: discounts.flatMap((d) =>
        d.type === 'campaign' && d.campaign_id
          ? [{ campaignId: d.campaign_id, voucherCode: d.voucher_code ?? null, discount: d.minor }]
          : [],
      ),
      conflicts,
      soldBy,
      shiftId,
      customerId,
      priced: {
        currency,
        pricesIncludeTax: settings.prices_include_tax,
        quoted,
        notes: sale.lines.map((l) => l.note ?? ''),
        unitPrices,
        rates,
        totals: {
          subtotal,
          discountTotal,
          discountAmounts: discounts.filter((d) => d.type !== 'campaign').map((d) => d.minor),
          taxTotal,
          total: linesTotal,
          lines: lineTotals,
        },
        discounts: discounts.map((d) =>
          d.type === 'campaign'
            ? {
                type: 'campaign' as const,
                campaign_id: d.campaign_id ?? '',
                rule_id: '',
                rule_type: 'offline',
                name: d.reason,
                voucher_code: d.voucher_code ?? null,
                amount: d.minor.toString(),
                lines: [],
              }
            : { type: d.type, value: d.value ?? Number(d.amount), reason: d.reason, amount: d.minor.toString() },
        ),
        campaigns: { applications: [], skipped: [], presented: [] },
        tip,
      },
    }
  }

  /** Lines whose unit price differs from what the server's catalog asked at the time, where it can still quote. */
  async function priceConflicts(ctx: RequestContext, quoted: QuotedLine[], locationId: string, at: Date) {
    let server: QuotedLine[]
    try {
      server = await deps.catalog.pricing.quote(
        ctx,
        quoted.map((q) => ({
          productId: q.productId,
          variantId: q.variantId,
          quantity: q.quantity,
          modifierOptionIds: q.modifiers.map((m) => m.id),
        })),
        { locationId, at },
      )
    } catch (error) {
      // An item archived or changed since cannot be quoted any more: nothing to compare it with.
      if (error instanceof AppError) return []
      throw error
    }
    return quoted.flatMap((q, i) => {
      const expected = server[i].unitPrice + server[i].modifiers.reduce((a, m) => a + m.priceAdjustment, 0n)
      return expected === q.unitPrice
        ? []
        : [
            {
              code: 'price_differs',
              message: `${q.name} was sold at ${q.unitPrice} where the catalog asks ${expected} (minor units)`,
              details: { line: i, product_id: q.productId, till: q.unitPrice.toString(), server: expected.toString() },
            },
          ]
    })
  }

  async function exists(check: () => Promise<unknown>): Promise<boolean> {
    try {
      await check()
      return true
    } catch (error) {
      if (error instanceof AppError && [404, 422].includes(error.status)) return false
      throw error
    }
  }

  const answer = (
    clientSaleId: string,
    order: { id: string; number: number },
    result: SaleResult['result'],
    conflicts: readonly Conflict[],
  ): SaleResult => ({
    client_sale_id: clientSaleId,
    result: result === 'recorded' && conflicts.length ? 'recorded_with_conflicts' : result,
    order_id: order.id,
    number: order.number,
    conflicts: conflicts.map((c) => ({ code: c.code, message: c.message })),
    errors: [],
  })

  /** Sales found recorded already, answered with the conflicts they were recorded with (one read for all). */
  async function alreadyRecorded(ctx: RequestContext, found: ReadonlyMap<string, { id: string; number: number }>) {
    const orderIds = [...found.values()].map((o) => o.id)
    const conflicts = orderIds.length
      ? await ctx.db.read((q) => conflictsRepo.conflictsOfOrders(q, ctx.orgId, orderIds))
      : []
    return new Map(
      [...found].map(([clientSaleId, order]) => [
        clientSaleId,
        answer(
          clientSaleId,
          order,
          'already_recorded',
          conflicts.filter((c) => c.order_id === order.id),
        ),
      ]),
    )
  }

  async function batchOf(ctx: RequestContext, registerId: string, sales: readonly OfflineSale[]): Promise<Batch> {
    const [settings, register, staff, items] = await Promise.all([
      deps.orgs.pricingSettings(ctx),
      deps.registers.getRegister(ctx, registerId),
      deps.staff(ctx),
      itemsOf(ctx, deps.catalog, sales),
    ])
    return { settings, locationId: register.location_id, staff, items }
  }

  /** A checked sale's order, stock, payments, campaign uses, conflicts and audit entry, in the caller's transaction. */
  async function writeSale(q: Queryable, ctx: RequestContext, prepared: Prepared, sale: OfflineSale, at: string) {
    const conflicts = [...prepared.conflicts]
    // A gift card pays what its balance allows now; the rest stays due.
    const tenders: Tender[] = []
    for (const t of prepared.tenders) {
      if (t.method !== 'gift_card') {
        tenders.push(t)
        continue
      }
      const redeemed = await deps.giftCards.redeemUpTo(ctx, t.giftCardCode!, t.amount, {
        type: 'payment',
        id: t.id,
      })
      const taken = redeemed?.taken ?? 0n
      if (taken < t.amount)
        conflicts.push({
          code: 'gift_card_short',
          message: redeemed
            ? `the gift card covered ${taken} of ${t.amount} (minor units)`
            : 'the gift card is unknown, disabled or empty: nothing was taken from it',
          details: { wanted: t.amount.toString(), taken: taken.toString() },
        })
      if (redeemed && taken > 0n) tenders.push({ ...t, amount: taken, giftCardId: redeemed.giftCardId })
    }
    // A card taken offline is authorized by the worker after this: the order does not count it until then.
    const paid = sum(tenders.filter((t) => t.method !== 'card').map((t) => t.amount))
    if (sum(tenders.map((t) => t.amount)) < prepared.total)
      conflicts.push({ code: 'balance_due', message: 'the payments do not cover the total: the rest is due' })
    // The number the till printed, when it is one the till held; else the org's next.
    let number = sale.number ?? null
    if (number !== null && !(await deps.orders.claimTillNumber(ctx, ctx.actor.clientId, number))) {
      conflicts.push({
        code: 'number_not_held',
        message: `order number ${number} is not one this till held: the sale took the next one`,
        details: { number },
      })
      number = null
    }
    const recorded = await deps.orders.recordOffline(ctx, {
      clientSaleId: sale.client_sale_id,
      soldAt: prepared.soldAt,
      locationId: prepared.locationId,
      customerId: prepared.customerId,
      shiftId: prepared.shiftId,
      soldBy: prepared.soldBy,
      priced: prepared.priced,
      paid,
      note: sale.note ?? '',
      number,
    })
    const order = recorded.completion ? await deps.completeSale(ctx, recorded.completion) : recorded.order
    // The campaign uses (counted where the limits allow: one past a limit is a conflict, not a refused sale), the
    // stock and the payments depend on the order alone: sent at once, on a pipelined connection one round trip.
    const [pastLimits, movements, { shiftKnown }] = await Promise.all([
      deps.campaigns.claimOffline(
        q,
        ctx,
        {
          id: order.id,
          locationId: prepared.locationId,
          customerId: prepared.customerId,
          currency: prepared.priced.currency,
          total: prepared.total,
        },
        prepared.campaignUses,
      ),
      deps.inventory.applyChanges(
        ctx,
        stockChangesOf(prepared.priced.quoted, {
          locationId: prepared.locationId,
          sign: -1,
          reason: 'sale',
          reference: { type: 'order', id: order.id },
          fieldPrefix: `${at}.`,
          occurredAt: prepared.soldAt,
        }),
        { belowZero: true },
      ),
      deps.payments.recordOffline(ctx, order.id, tenders, { at: prepared.soldAt, shiftId: prepared.shiftId }),
    ])
    for (const p of pastLimits)
      conflicts.push({
        code: p.code,
        message: `campaign ${p.campaignId}: ${p.code.replaceAll('_', ' ')}; the use is recorded but not counted`,
        details: { campaign_id: p.campaignId },
      })
    for (const m of movements.filter((m) => m.quantity_after < 0 && m.quantity < 0))
      conflicts.push({
        code: 'stock_negative',
        message: `the sale took ${m.product_id}${m.variant_id ? ` (${m.variant_id})` : ''} to ${m.quantity_after} on hand`,
        details: {
          product_id: m.product_id,
          variant_id: m.variant_id,
          location_id: m.location_id,
          on_hand: m.quantity_after,
        },
      })
    if (!shiftKnown) conflicts.push({ code: 'unknown_shift', message: 'the cash could not go to its shift' })
    await Promise.all([
      conflictsRepo.insertConflicts(
        q,
        ctx.orgId,
        conflicts.map((c) => ({
          id: newId('scf'),
          orderId: order.id,
          clientSaleId: sale.client_sale_id,
          code: c.code,
          message: c.message,
          details: c.details ?? {},
        })),
      ),
      recordAudit(q, ctx, {
        action: 'order.synced',
        record: { type: 'order', id: order.id },
        changes: {
          client_sale_id: sale.client_sale_id,
          sold_at: prepared.soldAt.toISOString(),
          sold_by: prepared.soldBy,
          conflicts: conflicts.map((c) => c.code),
        },
      }),
    ])
    return { order, conflicts }
  }

  /** One sale not recorded yet: recorded, recorded with conflicts, or refused with the fields that failed. */
  async function recordSale(ctx: RequestContext, batch: Batch, sale: OfflineSale, at: string): Promise<SaleResult> {
    let prepared: Prepared
    try {
      prepared = await prepare(ctx, batch, sale, at)
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error
      const errors = error.errors?.length
        ? error.errors
        : [{ field: at, message: error.message, code: error.code.toLowerCase() }]
      return {
        client_sale_id: sale.client_sale_id,
        result: 'refused',
        order_id: null,
        number: null,
        conflicts: [],
        errors,
      }
    }
    try {
      // Two sales of a batch at once may lock the same rows in another order (a campaign's and a shift's): the
      // one PostgreSQL rolls back is written again.
      const { order, conflicts } = await retriedOnDeadlock(() =>
        ctx.db.tx((q) => writeSale(q, ctx, prepared, sale, at)),
      )
      return answer(sale.client_sale_id, order, 'recorded', conflicts)
    } catch (error) {
      // Sent twice at once (two tills' retries, a replay): the other request recorded it.
      if (!isUniqueViolation(error, 'orders_client_sale')) throw error
      const found = await deps.orders.recordedSales(ctx, [sale.client_sale_id])
      if (!found.size) throw error
      return (await alreadyRecorded(ctx, found)).get(sale.client_sale_id)!
    }
  }

  return {
    /** A card a till took offline was declined after sync: its order keeps the balance, with a conflict. */
    async cardDeclined(ctx: RequestContext, orderId: string, why: string): Promise<void> {
      const order = await deps.orderDetail(ctx, orderId)
      await ctx.db.tx((q) =>
        conflictsRepo.insertConflicts(q, ctx.orgId, [
          {
            id: newId('scf'),
            orderId,
            clientSaleId: order.client_sale_id ?? '',
            code: 'card_declined',
            message: `the card taken offline was declined: ${why}; its amount is due`,
            details: {},
          },
        ]),
      )
    },

    /** The order numbers the till holds for its offline sales, topped up to `count`. */
    numbers: (ctx: RequestContext, count: number) => deps.orders.reserveTillNumbers(ctx, ctx.actor.clientId, count),

    /**
     * Each sale on its own, answered in the order sent: one's refusal never stops the others. Sales are recorded
     * `SALES_AT_ONCE` at a time, so where two contend for the last of something (a unit of stock, a gift card's
     * balance, a campaign's last use) either may take it; the other records the conflict.
     */
    async record(ctx: RequestContext, sales: readonly OfflineSale[]): Promise<SaleResult[]> {
      const registerId = ctx.actor.registerId
      if (!registerId) throw invalid('sales', 'are sent by a till of no register', 'required')
      const known = await alreadyRecorded(
        ctx,
        await deps.orders.recordedSales(
          ctx,
          sales.map((s) => s.client_sale_id),
        ),
      )
      // What the sales not recorded yet share, read once for all of them.
      const fresh = sales.filter((s) => !known.has(s.client_sale_id))
      const batch = fresh.length ? await batchOf(ctx, registerId, fresh) : null
      const results: (SaleResult | undefined)[] = sales.map((s) => known.get(s.client_sale_id))
      // A failure (the database gone) fails the request, once the sale in flight beside it has finished: it may
      // have committed, and a resend must find it recorded rather than race it.
      let failure: { error: unknown } | undefined
      const record = async (i: number) => {
        if (failure) return
        try {
          results[i] = await recordSale(ctx, batch!, sales[i], `sales.${i}`)
        } catch (error) {
          failure ??= { error }
        }
      }
      // The first copy of each sale, several at a time.
      const firsts = new Map<string, number>()
      sales.forEach((s, i) => {
        if (!results[i] && !firsts.has(s.client_sale_id)) firsts.set(s.client_sale_id, i)
      })
      await pMap(firsts.values(), record, { concurrency: SALES_AT_ONCE })
      // A sale sent twice in one batch is answered by the copy that recorded it; a copy of a refused one is tried
      // after the first copies, in the order sent.
      for (const [i, sale] of sales.entries()) {
        if (failure) break
        if (results[i]) continue
        const recorded = results.find((r) => r?.client_sale_id === sale.client_sale_id && r.order_id)
        if (recorded) results[i] = { ...recorded, result: 'already_recorded' }
        else await record(i)
      }
      if (failure) throw failure.error
      return results as SaleResult[]
    },
  }
}

export type OfflineSalesService = ReturnType<typeof createOfflineSalesService>
