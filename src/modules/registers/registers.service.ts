import { newId } from '../../platform/crypto/ids.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { actorOf, type RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { toMajor, toMinor } from '../../platform/money/money.ts'
import type { LocationsService } from '../locations/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import { RegisterErrors } from './registers.errors.ts'
import * as repo from './registers.repo.ts'
import type {
  CashBody,
  CashMovement,
  CashMovementListQuery,
  CloseShiftBody,
  CreateRegisterBody,
  OpenShiftBody,
  Register,
  RegisterListQuery,
  Shift,
  ShiftListQuery,
} from './registers.schemas.ts'
import type { CashMovementRow, ShiftRow } from './registers.tables.ts'

function toShift(row: ShiftRow, currency: string): Shift {
  const money = (v: string) => toMajor(v, currency)
  return {
    id: row.id,
    register_id: row.register_id,
    location_id: row.location_id,
    status: row.status,
    currency,
    opening_float: money(row.opening_float),
    cash_in: money(row.cash_in),
    cash_out: money(row.cash_out),
    cash_sales: money(row.cash_sales),
    cash_refunds: money(row.cash_refunds),
    late_cash_sales: money(row.late_cash_sales),
    expected_amount: money(row.expected_amount),
    counted_amount: row.counted_amount === null ? null : money(row.counted_amount),
    variance: row.variance === null ? null : money(row.variance),
    opened_by: row.opened_by,
    closed_by: row.closed_by,
    opened_at: row.opened_at,
    closed_at: row.closed_at,
    version: row.version,
  }
}

function toCashMovement(row: CashMovementRow, currency: string): CashMovement {
  return {
    id: row.id,
    shift_id: row.shift_id,
    kind: row.kind,
    amount: toMajor(row.amount, currency),
    currency,
    reason: row.reason,
    reference: row.reference_type && row.reference_id ? { type: row.reference_type, id: row.reference_id } : null,
    actor: { user_id: row.actor_user_id, client_id: row.actor_client_id },
    created_at: row.created_at,
  }
}

export function createRegistersService(orgs: OrgsService, locations: LocationsService) {
  /** The shift is not open: 404 when it is not the org's, else 409 saying what could not be done. */
  async function notOpen(
    q: Parameters<typeof repo.shiftById>[0],
    ctx: RequestContext,
    shiftId: string,
    what: string,
  ): Promise<never> {
    const current = await repo.shiftById(q, ctx.orgId, shiftId)
    if (!current) throw notFound('shift')
    throw RegisterErrors.SHIFT_NOT_OPEN(`shift ${shiftId} is ${current.status}; ${what}`)
  }

  /** Refuses a shift that is not the org's (422 naming `field`) or not open (409): a sale names its shift. */
  async function assertOpenShift(ctx: RequestContext, shiftId: string, field: string): Promise<void> {
    const shift = await ctx.db.read((q) => repo.shiftById(q, ctx.orgId, shiftId))
    if (!shift) throw invalid(field, 'is not a shift of this org', 'not_found')
    if (shift.status !== 'open') throw RegisterErrors.SHIFT_NOT_OPEN(`shift ${shiftId} is ${shift.status}`)
  }

  /** Adds to a running total and writes the movement in one transaction; `then` runs inside it (events). */
  async function addCash<T>(
    ctx: RequestContext,
    input: {
      shiftId: string
      kind: CashMovementRow['kind']
      amount: bigint
      reason: string
      reference: { type: string; id: string } | null
    },
    then: (q: Parameters<typeof repo.shiftById>[0], shift: ShiftRow, movement: CashMovementRow) => Promise<T>,
  ): Promise<T> {
    return ctx.db.tx(async (q) => {
      const shift = await repo.addToShift(q, ctx.orgId, input.shiftId, input.kind, input.amount)
      if (!shift) return notOpen(q, ctx, input.shiftId, 'cash can only move on an open shift')
      const movement = await repo.insertCashMovement(q, ctx.orgId, { id: newId('cash'), ...input }, ctx.actor)
      return then(q, shift, movement)
    })
  }

  return {
    assertOpenShift,
    async createRegister(ctx: RequestContext, input: CreateRegisterBody): Promise<Register> {
      const name = input.name.trim()
      if (!name) throw invalid('name', 'must not be blank', 'required')
      return ctx.db.tx(async (q) => {
        await locations.assertExists(ctx, input.location_id, 'location_id')
        const register = await repo.insertRegister(q, ctx.orgId, {
          id: newId('reg'),
          locationId: input.location_id,
          name,
        })
        await emitEvent(q, ctx.orgId, 'register.created', register)
        return register
      })
    },

    async getRegister(ctx: RequestContext, id: string): Promise<Register> {
      const row = await ctx.db.read((q) => repo.registerById(q, ctx.orgId, id))
      if (!row) throw notFound('register')
      return row
    },

    async listRegisters(ctx: RequestContext, query: RegisterListQuery): Promise<Page<Register>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listRegisters(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          locationId: query.location_id,
          limit: query.limit + 1,
        }),
      )
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => r,
      )
    },

    /** Opens a shift with a cash float; a register has at most one open shift (409). */
    async openShift(ctx: RequestContext, registerId: string, input: OpenShiftBody): Promise<Shift> {
      const currency = await orgs.currencyOf(ctx)
      const openingFloat = toMinor(input.opening_float, currency, 'opening_float')
      try {
        return await ctx.db.tx(async (q) => {
          const register = await repo.registerById(q, ctx.orgId, registerId)
          if (!register) throw notFound('register')
          if (register.open_shift_id)
            throw RegisterErrors.SHIFT_ALREADY_OPEN(
              `register ${registerId} already has an open shift: ${register.open_shift_id}`,
            )
          const row = await repo.insertShift(q, ctx.orgId, {
            id: newId('shf'),
            registerId,
            locationId: register.location_id,
            openingFloat,
            openedBy: actorOf(ctx),
          })
          const shift = toShift(row, currency)
          await emitEvent(q, ctx.orgId, 'shift.opened', shift)
          return shift
        })
      } catch (error) {
        // Two opens at once both saw no open shift; the partial unique index lets one through.
        if (isUniqueViolation(error, 'shifts_one_open'))
          throw RegisterErrors.SHIFT_ALREADY_OPEN(`register ${registerId} already has an open shift`)
        throw error
      }
    },

    async getShift(ctx: RequestContext, id: string): Promise<Shift> {
      const currency = await orgs.currencyOf(ctx)
      const row = await ctx.db.read((q) => repo.shiftById(q, ctx.orgId, id))
      if (!row) throw notFound('shift')
      return toShift(row, currency)
    },

    async listShifts(ctx: RequestContext, query: ShiftListQuery): Promise<Page<Shift>> {
      const currency = await orgs.currencyOf(ctx)
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listShifts(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          registerId: query.register_id,
          status: query.status,
          order: query.order,
          limit: query.limit + 1,
        }),
      )
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toShift(r, currency),
      )
    },

    async listCashMovements(
      ctx: RequestContext,
      shiftId: string,
      query: CashMovementListQuery,
    ): Promise<Page<CashMovement>> {
      const currency = await orgs.currencyOf(ctx)
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read(async (q) => {
        if (!(await repo.shiftById(q, ctx.orgId, shiftId))) throw notFound('shift')
        return repo.listCashMovements(q, ctx.orgId, { shiftId, afterId: afterId ?? undefined, limit: query.limit + 1 })
      })
      return toPage(
        rows,
        query.limit,
        (r) => [r.id],
        (r) => toCashMovement(r, currency),
      )
    },

    /** Cash put into (float top-up) or taken out of (drop, payout) the drawer by hand. */
    async moveCash(ctx: RequestContext, shiftId: string, input: CashBody): Promise<CashMovement> {
      const currency = await orgs.currencyOf(ctx)
      const amount = toMinor(input.amount, currency, 'amount')
      if (amount === 0n) throw invalid('amount', 'must be greater than zero', 'out_of_range')
      const reason = input.reason.trim()
      if (!reason) throw invalid('reason', 'must not be blank', 'required')
      return addCash(
        ctx,
        { shiftId, kind: input.kind, amount, reason, reference: null },
        async (q, shift, movement) => {
          const view = toCashMovement(movement, currency)
          await emitEvent(q, ctx.orgId, 'shift.cash_moved', { ...view, shift: toShift(shift, currency) })
          return view
        },
      )
    },

    /**
     * Records a cash sale or cash refund on an open shift, inside the caller's transaction (orders, refunds).
     * 404 when the shift is not the org's, 409 when it is not open.
     */
    async recordCashMovement(
      ctx: RequestContext,
      input: { shiftId: string; kind: 'sale' | 'refund'; amount: bigint; reference: { type: string; id: string } },
    ): Promise<void> {
      if (input.amount <= 0n) throw new RangeError('a cash movement amount must be positive')
      await addCash(ctx, { ...input, reason: input.kind }, async () => undefined)
    },

    /**
     * Cash of a sale made offline in the shift: counted in its cash sales while it is open, as a late sale once it
     * has closed (its close-out stays as it was). False when the shift is not the org's.
     */
    async recordOfflineCash(
      ctx: RequestContext,
      input: { shiftId: string; amount: bigint; reference: { type: string; id: string } },
    ): Promise<boolean> {
      return ctx.db.tx(async (q) => {
        const shift = await repo.addLateSale(q, ctx.orgId, input.shiftId, input.amount)
        if (!shift) return false
        const reason = shift.status === 'open' ? 'sale' : 'late sale'
        await repo.insertCashMovement(
          q,
          ctx.orgId,
          {
            id: newId('cash'),
            shiftId: input.shiftId,
            kind: 'sale',
            amount: input.amount,
            reason,
            reference: input.reference,
          },
          ctx.actor,
        )
        return true
      })
    },

    /** Closes an open shift with the counted cash: variance = counted - expected (negative: cash is short). */
    async closeShift(ctx: RequestContext, shiftId: string, input: CloseShiftBody): Promise<Shift> {
      const currency = await orgs.currencyOf(ctx)
      const counted = toMinor(input.counted_amount, currency, 'counted_amount')
      return ctx.db.tx(async (q) => {
        const row = await repo.closeShift(q, ctx.orgId, shiftId, counted, actorOf(ctx))
        if (!row) return notOpen(q, ctx, shiftId, 'only an open shift can be closed')
        const shift = toShift(row, currency)
        await emitEvent(q, ctx.orgId, 'shift.closed', shift)
        return shift
      })
    },
  }
}

export type RegistersService = ReturnType<typeof createRegistersService>
