import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { toMajor } from '../../platform/money/money.ts'
import { e4ToPercent } from '../../platform/money/percent.ts'
import type {
  ApprovalsPort,
  CampaignsPort,
  CustomersPort,
  InventoryPort,
  LocationsPort,
  PricedOrder,
  PricingInput,
} from '../orders/index.ts'
import { ownDiscountPercent, refuseUsedUpVouchers, stockChangesOf } from '../orders/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import type { CardHold, CreatePaymentInput, PaymentsService, PaymentTarget } from '../payments/index.ts'
import { mayMove, moveLayby } from './layby-status.ts'
import { LaybyErrors } from './laybys.errors.ts'
import * as repo from './laybys.repo.ts'
import type {
  CancelLaybyBody,
  CompleteLaybyBody,
  CreateLaybyBody,
  Layby,
  LaybyListQuery,
  LaybyStatus,
  TenderBody,
} from './laybys.schemas.ts'
import type { LaybyRow } from './laybys.tables.ts'

/** The priced lines a lay-by keeps (JSON: bigints as strings), so its order is built at the price agreed. */
function freeze(p: PricedOrder) {
  const big = (_: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)
  return JSON.parse(JSON.stringify(p, big))
}
function thaw(stored: unknown): PricedOrder {
  const priced: PricedOrder = JSON.parse(JSON.stringify(stored), (_, v) =>
    typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
  )
  // Lay-bys kept before tips and untracked items (db/migrations/0146) had no tip, and every line drew stock.
  return { ...priced, tip: priced.tip ?? 0n, quoted: priced.quoted.map((q) => ({ ...q, tracked: q.tracked ?? true })) }
}

function toLayby(row: LaybyRow, payments?: object[]): Layby {
  const c = row.currency
  const priced = thaw(row.lines)
  const due = BigInt(row.total) - BigInt(row.paid_total)
  return {
    id: row.id,
    status: row.status,
    customer_id: row.customer_id,
    location_id: row.location_id,
    currency: c,
    lines: priced.quoted.map((q, i) => ({
      product_id: q.productId,
      variant_id: q.variantId,
      name: q.name,
      quantity: q.quantity,
      unit_price: toMajor(priced.unitPrices[i], c),
      tax_rate: e4ToPercent(priced.rates[i]),
      line_subtotal: toMajor(priced.totals.lines[i].lineSubtotal, c),
      line_discount: toMajor(priced.totals.lines[i].lineDiscount, c),
      line_tax: toMajor(priced.totals.lines[i].lineTax, c),
      line_total: toMajor(priced.totals.lines[i].lineTotal, c),
    })),
    subtotal: toMajor(row.subtotal, c),
    discount_total: toMajor(row.discount_total, c),
    tax_total: toMajor(row.tax_total, c),
    total: toMajor(row.total, c),
    amount_paid: toMajor(row.paid_total, c),
    balance_due: toMajor(due, c),
    order_id: row.order_id,
    note: row.note,
    ...(payments ? { payments } : {}),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

interface LaybysDeps {
  orgs: OrgsService
  payments: PaymentsService
  inventory: InventoryPort
  locations: LocationsPort
  customers: CustomersPort
  /** The lines priced as a sale's (flows/price-sale.ts). */
  priceSale(ctx: RequestContext, input: PricingInput): Promise<PricedOrder>
  /** Claimed as an order's; released by a cancellation. */
  campaigns: Pick<CampaignsPort, 'claim'> & { release(ctx: RequestContext, laybyId: string): Promise<number> }
  /** What staff may not do alone: its own discounts above the store's limit, a cancellation (its refunds). */
  approvals: ApprovalsPort
}

/**
 * Lay-bys: goods put aside against a deposit. Opening reserves the stock (layby_reserve) and takes the deposit in one
 * transaction; payments reduce the balance; completing (paid in full, goods collected) turns it into a completed
 * order that owns its payments; cancelling refunds every payment and releases the stock (layby_release).
 * No processor call runs inside a transaction: a card deposit is authorized before the lay-by's transaction and
 * given back if it fails (so a declined deposit leaves no lay-by behind), and a cancellation's refunds run between
 * its steps (see docs/commerce.md).
 */
export function createLaybysService(deps: LaybysDeps) {
  /** What the lay-by reserves and gives back: its counted lines, bundles by the components kept with the price. */
  const stockChanges = (row: LaybyRow, sign: 1 | -1, reason: 'layby_reserve' | 'layby_release') =>
    stockChangesOf(thaw(row.lines).quoted, {
      locationId: row.location_id,
      sign,
      reason,
      reference: { type: 'layby', id: row.id },
    })

  const target = (laybyId: string, announce: boolean): PaymentTarget => ({
    orderId: null,
    laybyId,
    async lock(ctx) {
      const row = await ctx.db.tx((q) => repo.laybyById(q, ctx.orgId, laybyId, true))
      if (!row) throw notFound('lay-by')
      if (row.status !== 'open') return { payable: false, why: `the lay-by is ${row.status}` }
      return { payable: true, outstanding: BigInt(row.total) - BigInt(row.paid_total) }
    },
    async captured(ctx, amount) {
      await ctx.db.tx(async (q) => {
        const row = await repo.addPaid(q, ctx.orgId, laybyId, amount)
        if (announce)
          await emitEvent(q, ctx.orgId, 'layby.payment_received', {
            ...toLayby(row),
            amount: toMajor(amount, row.currency),
          })
      })
    },
  })

  /** The lay-by, locked. */
  async function locked(q: Queryable, ctx: RequestContext, id: string): Promise<LaybyRow> {
    const row = await repo.laybyById(q, ctx.orgId, id, true)
    if (!row) throw notFound('lay-by')
    return row
  }

  /** The lay-by, locked, in a state it may move `to` from (the table), and one of `from` when the step says. */
  async function lockedFor(
    q: Queryable,
    ctx: RequestContext,
    id: string,
    to: LaybyStatus,
    from?: readonly LaybyStatus[],
  ): Promise<LaybyRow> {
    const row = await locked(q, ctx, id)
    if (!mayMove(row.status, to) || (from && !from.includes(row.status)))
      throw LaybyErrors.NOT_OPEN(`a lay-by that is ${row.status} cannot change`)
    return row
  }

  /**
   * Three steps, so that the processor's refunds run outside any transaction: the lay-by turns `cancelling` with
   * its refunds reserved and what it was asked with; the card refunds go to the processor (the lay-by's id as
   * their reference, so a resumed cancellation refunds nothing twice); then the refunds settle, the stock comes
   * back and the lay-by is `cancelled`. A refusal in the middle puts it back as it was (409). The lay-by is locked
   * and must still be `cancelling` for either, so a request and the worker finishing the same cancellation settle
   * or release it once.
   * `asked` is null when the worker resumes: the interrupted request's reason and shift stand.
   */
  async function cancelInSteps(
    ctx: RequestContext,
    id: string,
    asked: { reason: string | null; shiftId: string | null } | null,
    from?: readonly LaybyStatus[],
  ): Promise<Layby> {
    const parts = await ctx.db.tx(async (q) => {
      const row = await lockedFor(q, ctx, id, 'cancelling', from)
      await moveLayby(q, ctx, row, {
        to: 'cancelling',
        asked: asked ?? { reason: row.cancel_reason, shiftId: row.cancel_shift_id },
      })
      return deps.payments.reserveLaybyRefunds(ctx, id)
    })
    const outcome = await deps.payments.executeLaybyRefunds(ctx, id, parts)
    if (!outcome.ok) {
      await ctx.db.tx(async (q) => {
        // Open already: the other one finishing this cancellation was refused too, and has released it.
        const row = await locked(q, ctx, id)
        if (row.status !== 'cancelling') return
        await deps.payments.releaseLaybyRefunds(ctx, id, parts)
        await moveLayby(q, ctx, row, { to: 'open' })
      })
      throw LaybyErrors.PROCESSOR_REFUSED(`the payment processor refused the refund: ${outcome.reason}`)
    }
    const refunded = parts.reduce((sum, part) => sum + part.amount, 0n)
    return ctx.db.tx(async (q) => {
      const row = await locked(q, ctx, id)
      // Cancelled already: the other one finishing this cancellation settled it; this one answers it as done.
      if (row.status === 'cancelled') return toLayby(row)
      if (row.status !== 'cancelling') throw LaybyErrors.NOT_OPEN(`a lay-by that is ${row.status} cannot change`)
      await deps.payments.settleLaybyRefunds(ctx, id, parts, row.cancel_shift_id)
      await deps.inventory.applyChanges(ctx, stockChanges(row, 1, 'layby_release'))
      await deps.campaigns.release(ctx, id)
      const done = toLayby(await moveLayby(q, ctx, row, { to: 'cancelled' }))
      await emitEvent(q, ctx.orgId, 'layby.cancelled', {
        ...done,
        amount_refunded: toMajor(refunded, row.currency),
        reason: row.cancel_reason ?? '',
      })
      return done
    })
  }

  /** Opens the lay-by in one transaction: its lines, campaign uses, stock reservation and deposit. */
  function open(
    ctx: RequestContext,
    input: CreateLaybyBody,
    deposit: CreatePaymentInput,
    hold: CardHold | null,
    approvedBy: string | null,
  ): Promise<Layby> {
    return ctx.db.tx(async (q) => {
      await deps.customers.assertExists(ctx, input.customer_id, 'customer_id')
      await deps.locations.assertExists(ctx, input.location_id, 'location_id')
      const priced = await deps.priceSale(ctx, input)
      refuseUsedUpVouchers(priced)
      if (priced.discounts.length > 0)
        await deps.approvals.assertApproved(ctx, { kind: 'discount', percent: ownDiscountPercent(priced) }, approvedBy)
      const row = await repo.insertLayby(q, ctx.orgId, {
        id: newId('lay'),
        customerId: input.customer_id,
        locationId: input.location_id,
        currency: priced.currency,
        lines: freeze(priced),
        subtotal: priced.totals.subtotal,
        discountTotal: priced.totals.discountTotal,
        taxTotal: priced.totals.taxTotal,
        total: priced.totals.total,
        note: input.note ?? '',
      })
      // A lay-by's campaign uses count when it opens (against the lay-by) and come back if it is cancelled.
      await deps.campaigns.claim(
        ctx,
        {
          id: row.id,
          locationId: input.location_id,
          customerId: input.customer_id,
          currency: priced.currency,
          total: priced.totals.total,
        },
        priced.campaigns.applications,
      )
      await deps.inventory.applyChanges(ctx, stockChanges(row, -1, 'layby_reserve'))
      const payment = await deps.payments.create(ctx, deposit, target(row.id, false), hold)
      if (payment.status === 'failed')
        throw LaybyErrors.CARD_DECLINED(`the deposit was declined: ${payment.failure_message}`)
      const layby = toLayby((await repo.laybyById(q, ctx.orgId, row.id))!, [payment])
      await emitEvent(q, ctx.orgId, 'layby.created', layby)
      return layby
    })
  }

  const service = {
    /**
     * A card deposit is authorized before the lay-by's transaction (no processor call inside one), recorded in it,
     * and given back if the lay-by cannot open (a retry then authorizes anew).
     */
    async create(ctx: RequestContext, input: CreateLaybyBody): Promise<Layby> {
      const deposit = { ...input.deposit, capture: true }
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      const hold = await deps.payments.holdCard(ctx, deposit)
      try {
        return await open(ctx, input, deposit, hold, approvedBy)
      } catch (error) {
        if (hold) await deps.payments.releaseHold(ctx, hold)
        throw error
      }
    },

    async get(ctx: RequestContext, id: string): Promise<Layby> {
      const row = await ctx.db.read((q) => repo.laybyById(q, ctx.orgId, id))
      if (!row) throw notFound('lay-by')
      return toLayby(row, await deps.payments.listForLayby(ctx, id))
    },

    async list(ctx: RequestContext, query: LaybyListQuery): Promise<Page<Layby>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listLaybys(q, ctx.orgId, {
          afterId: afterId ?? null,
          status: query.status ?? null,
          customerId: query.customer_id ?? null,
          limit: query.limit + 1,
        }),
      )
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toLayby(r),
      )
    },

    /** A payment against the balance (layby.payment_received); a declined card is answered as a failed payment. */
    async pay(ctx: RequestContext, id: string, tender: TenderBody) {
      const payment = await deps.payments.create(ctx, { ...tender, capture: true }, target(id, true))
      return { payment, layby: await service.get(ctx, id) }
    },

    /**
     * Collecting a lay-by, its first step (flows/layby.ts): the lay-by, locked and paid in full, and the completed
     * order it becomes, as orders records it.
     */
    async startCompletion(ctx: RequestContext, id: string, input: CompleteLaybyBody) {
      return ctx.db.tx(async (q) => {
        const row = await lockedFor(q, ctx, id, 'completed')
        if (BigInt(row.paid_total) < BigInt(row.total)) throw LaybyErrors.NOT_PAID('the lay-by is not paid in full')
        return {
          row,
          order: {
            laybyId: id,
            locationId: row.location_id,
            customerId: row.customer_id,
            priced: thaw(row.lines),
            paid: BigInt(row.paid_total),
            note: input.note ?? row.note,
          },
        }
      })
    },

    /** Collecting a lay-by, its last step: completed, naming its order (layby.completed). */
    async finishCompletion(ctx: RequestContext, started: { row: LaybyRow }, orderId: string): Promise<Layby> {
      return ctx.db.tx(async (q) => {
        const done = toLayby(await moveLayby(q, ctx, started.row, { to: 'completed', orderId }))
        await emitEvent(q, ctx.orgId, 'layby.completed', done)
        return done
      })
    },

    /** Cancels an open lay-by, or resumes a cancellation a crash interrupted (docs/commerce.md "Lay-bys"). */
    async cancel(ctx: RequestContext, id: string, input: CancelLaybyBody): Promise<Layby> {
      // A cancellation refunds every payment: a refund staff may not make alone.
      const approvedBy = input.approval ? await deps.approvals.approverAtTill(ctx, input.approval) : null
      await deps.approvals.assertApproved(ctx, { kind: 'refund' }, approvedBy)
      return cancelInSteps(ctx, id, { reason: input.reason ?? null, shiftId: input.shift_id ?? null })
    },

    /** Finishes a cancellation its request left `cancelling` (the worker, once no request can still be running). */
    async resumeStalledCancel(ctx: RequestContext, id: string): Promise<void> {
      await cancelInSteps(ctx, id, null, ['cancelling'])
    },
  }
  return service
}

export type LaybysService = ReturnType<typeof createLaybysService>
