import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { toMajor } from '../../platform/money/money.ts'
import { e4ToPercent } from '../../platform/money/percent.ts'
import type { CustomersPort, LocationsPort, PricedOrder } from '../orders/index.ts'
import type { Payment, PaymentTarget } from '../payments/index.ts'
import { mayMove, moveLayby } from './layby-status.ts'
import { LaybyErrors } from './laybys.errors.ts'
import * as repo from './laybys.repo.ts'
import type { CompleteLaybyBody, CreateLaybyBody, Layby, LaybyListQuery, LaybyStatus } from './laybys.schemas.ts'
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
  locations: LocationsPort
  customers: CustomersPort
}

/** A lay-by's record as the next step of a flow takes it (locked in the flow's transaction). */
export type LaybyRecord = LaybyRow

/**
 * Lay-bys: goods put aside against a deposit. Opening reserves the stock (layby_reserve) and takes the deposit in one
 * transaction; payments reduce the balance; completing (paid in full, goods collected) turns it into a completed
 * order that owns its payments; cancelling refunds every payment and releases the stock (layby_release). The
 * sequences that take payments, campaigns and orders with them are flows (flows/layby.ts); these are the lay-by's
 * own steps.
 */
export function createLaybysService(deps: LaybysDeps) {
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

  const service = {
    /** What a payment toward the lay-by pays: its balance, locked; `announce` says layby.payment_received. */
    paymentTarget: (laybyId: string, announce: boolean): PaymentTarget => ({
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
    }),

    /** Opening, its first check: the customer and the store it names. */
    async checkReferences(ctx: RequestContext, input: CreateLaybyBody): Promise<void> {
      await deps.customers.assertExists(ctx, input.customer_id, 'customer_id')
      await deps.locations.assertExists(ctx, input.location_id, 'location_id')
    },

    /** Opening: the lay-by recorded at the price agreed (in the flow's transaction). */
    async record(ctx: RequestContext, input: CreateLaybyBody, priced: PricedOrder): Promise<LaybyRecord> {
      return ctx.db.tx(async (q) => {
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
        return row
      })
    },

    /** The lines a lay-by keeps at the price agreed: what it puts aside and gives back. */
    pricedOf: (row: LaybyRecord): PricedOrder => thaw(row.lines),

    /** Opening, its last step: layby.created, with its deposit. */
    async announceOpened(ctx: RequestContext, id: string, deposit: Payment): Promise<Layby> {
      return ctx.db.tx(async (q) => {
        const layby = toLayby((await repo.laybyById(q, ctx.orgId, id))!, [deposit])
        await emitEvent(q, ctx.orgId, 'layby.created', layby)
        return layby
      })
    },

    /** The lay-by with its payments (which the payments module keeps: flows/layby.ts reads them). */
    async get(ctx: RequestContext, id: string, payments: Payment[]): Promise<Layby> {
      const row = await ctx.db.read((q) => repo.laybyById(q, ctx.orgId, id))
      if (!row) throw notFound('lay-by')
      return toLayby(row, payments)
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

    /** A cancellation's first step (flows/layby.ts): the lay-by, locked, turns `cancelling`. */
    async startCancelling(ctx: RequestContext, id: string, from?: readonly LaybyStatus[]): Promise<void> {
      await ctx.db.tx(async (q) => {
        await moveLayby(q, ctx, await lockedFor(q, ctx, id, 'cancelling', from), { to: 'cancelling' })
      })
    },

    /**
     * The lay-by, locked, while its cancellation is under way; otherwise null with its status (open again: another
     * finisher released it; `cancelled`: another settled it, answered as done).
     */
    async lockCancelling(
      ctx: RequestContext,
      id: string,
    ): Promise<{ row: LaybyRecord; done: null } | { row: null; status: LaybyStatus; done: Layby | null }> {
      return ctx.db.tx(async (q) => {
        const row = await locked(q, ctx, id)
        if (row.status === 'cancelling') return { row, done: null }
        return { row: null, status: row.status, done: row.status === 'cancelled' ? toLayby(row) : null }
      })
    },

    /** A cancellation the processor refused: the lay-by is open again, as it was. */
    async reopen(ctx: RequestContext, row: LaybyRecord): Promise<void> {
      await ctx.db.tx((q) => moveLayby(q, ctx, row, { to: 'open' }))
    },

    /** A cancellation's last step, its stock back: the lay-by cancelled, layby.cancelled with the reason asked. */
    async finishCancelling(
      ctx: RequestContext,
      row: LaybyRecord,
      refunded: bigint,
      reason: string | null,
    ): Promise<Layby> {
      return ctx.db.tx(async (q) => {
        const done = toLayby(await moveLayby(q, ctx, row, { to: 'cancelled' }))
        await emitEvent(q, ctx.orgId, 'layby.cancelled', {
          ...done,
          amount_refunded: toMajor(refunded, row.currency),
          reason: reason ?? '',
        })
        return done
      })
    },
  }
  return service
}

export type LaybysService = ReturnType<typeof createLaybysService>
