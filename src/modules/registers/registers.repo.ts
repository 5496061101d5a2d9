import type { Queryable } from '../../platform/db/database.ts'
import { listDirection } from '../../platform/db/list-direction.ts'
import {
  type CashMovementRow,
  cashColumns,
  EXPECTED,
  type RegisterRow,
  registerColumns,
  type ShiftRow,
  shiftColumns,
} from './registers.tables.ts'

export async function insertRegister(
  q: Queryable,
  orgId: string,
  r: { id: string; locationId: string; name: string },
): Promise<RegisterRow> {
  await q.query('INSERT INTO registers (id, org_id, location_id, name) VALUES ($1, $2, $3, $4)', [
    r.id,
    orgId,
    r.locationId,
    r.name,
  ])
  return (await registerById(q, orgId, r.id))!
}

export async function registerById(q: Queryable, orgId: string, id: string): Promise<RegisterRow | undefined> {
  const result = await q.query<RegisterRow>(
    `SELECT ${registerColumns} FROM registers r WHERE r.org_id = $1 AND r.id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function listRegisters(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; locationId?: string; limit: number },
): Promise<RegisterRow[]> {
  const result = await q.query<RegisterRow>(
    `SELECT ${registerColumns} FROM registers r
     WHERE r.org_id = $1 AND ($2::text IS NULL OR r.id > $2) AND ($3::text IS NULL OR r.location_id = $3)
     ORDER BY r.id LIMIT $4`,
    [orgId, f.afterId ?? null, f.locationId ?? null, f.limit],
  )
  return result.rows
}

/** Fails with a unique violation on `shifts_one_open` when the register already has an open shift. */
export async function insertShift(
  q: Queryable,
  orgId: string,
  s: { id: string; registerId: string; locationId: string; openingFloat: bigint; openedBy: string | null },
): Promise<ShiftRow> {
  const result = await q.query<ShiftRow>(
    `INSERT INTO shifts (id, org_id, register_id, location_id, opening_float, opened_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${shiftColumns}`,
    [s.id, orgId, s.registerId, s.locationId, s.openingFloat.toString(), s.openedBy],
  )
  return result.rows[0]
}

export async function shiftById(q: Queryable, orgId: string, id: string): Promise<ShiftRow | undefined> {
  const result = await q.query<ShiftRow>(`SELECT ${shiftColumns} FROM shifts WHERE org_id = $1 AND id = $2`, [
    orgId,
    id,
  ])
  return result.rows[0]
}

export async function listShifts(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; registerId?: string; status?: string; order?: 'oldest' | 'newest'; limit: number },
): Promise<ShiftRow[]> {
  const { after, sort } = listDirection(f.order)
  const result = await q.query<ShiftRow>(
    `SELECT ${shiftColumns} FROM shifts
     WHERE org_id = $1 AND ($2::text IS NULL OR id ${after} $2) AND ($3::text IS NULL OR register_id = $3)
       AND ($4::text IS NULL OR status = $4)
     ORDER BY id ${sort} LIMIT $5`,
    [orgId, f.afterId ?? null, f.registerId ?? null, f.status ?? null, f.limit],
  )
  return result.rows
}

const totalColumn = { in: 'cash_in', out: 'cash_out', sale: 'cash_sales', refund: 'cash_refunds' } as const

/** A late cash sale (made offline, synced after the close-out) on a shift of the org, open or closed. */
export async function addLateSale(
  q: Queryable,
  orgId: string,
  id: string,
  amount: bigint,
): Promise<ShiftRow | undefined> {
  const result = await q.query<ShiftRow>(
    `UPDATE shifts SET cash_sales = cash_sales + CASE WHEN status = 'open' THEN $3::bigint ELSE 0 END,
       late_cash_sales = late_cash_sales + CASE WHEN status = 'closed' THEN $3::bigint ELSE 0 END, version = version + 1
     WHERE org_id = $1 AND id = $2 RETURNING ${shiftColumns}`,
    [orgId, id, amount.toString()],
  )
  return result.rows[0]
}

/**
 * Adds to one running total of an open shift. Undefined when the shift is not open (or not there): the row
 * lock orders this against a concurrent close, so no cash lands on a closed shift.
 */
export async function addToShift(
  q: Queryable,
  orgId: string,
  id: string,
  kind: keyof typeof totalColumn,
  amount: bigint,
): Promise<ShiftRow | undefined> {
  const column = totalColumn[kind]
  const result = await q.query<ShiftRow>(
    `UPDATE shifts SET ${column} = ${column} + $3, version = version + 1
     WHERE org_id = $1 AND id = $2 AND status = 'open' RETURNING ${shiftColumns}`,
    [orgId, id, amount.toString()],
  )
  return result.rows[0]
}

export async function insertCashMovement(
  q: Queryable,
  orgId: string,
  m: {
    id: string
    shiftId: string
    kind: string
    amount: bigint
    reason: string
    reference: { type: string; id: string } | null
  },
  actor: { userId: string | null; clientId: string },
): Promise<CashMovementRow> {
  const result = await q.query<CashMovementRow>(
    `INSERT INTO shift_cash_movements (id, org_id, shift_id, kind, amount, reason, reference_type, reference_id, actor_user_id, actor_client_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${cashColumns}`,
    [
      m.id,
      orgId,
      m.shiftId,
      m.kind,
      m.amount.toString(),
      m.reason,
      m.reference?.type ?? null,
      m.reference?.id ?? null,
      actor.userId,
      actor.clientId,
    ],
  )
  return result.rows[0]
}

export async function listCashMovements(
  q: Queryable,
  orgId: string,
  f: { shiftId: string; afterId?: string; limit: number },
): Promise<CashMovementRow[]> {
  const result = await q.query<CashMovementRow>(
    `SELECT ${cashColumns} FROM shift_cash_movements
     WHERE org_id = $1 AND shift_id = $2 AND ($3::text IS NULL OR id > $3) ORDER BY id LIMIT $4`,
    [orgId, f.shiftId, f.afterId ?? null, f.limit],
  )
  return result.rows
}

/** Closes an open shift, fixing expected cash and the variance from the totals under the row lock. */
export async function closeShift(
  q: Queryable,
  orgId: string,
  id: string,
  counted: bigint,
  closedBy: string | null,
): Promise<ShiftRow | undefined> {
  const result = await q.query<ShiftRow>(
    `UPDATE shifts SET status = 'closed', expected_amount = ${EXPECTED}, counted_amount = $3::bigint,
       variance = $3::bigint - (${EXPECTED}), closed_by = $4, closed_at = now(), version = version + 1
     WHERE org_id = $1 AND id = $2 AND status = 'open' RETURNING ${shiftColumns}`,
    [orgId, id, counted.toString(), closedBy],
  )
  return result.rows[0]
}
