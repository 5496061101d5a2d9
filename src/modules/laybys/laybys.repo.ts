import type { Queryable } from '../../platform/db/database.ts'
import { type LaybyRow, laybyColumns } from './laybys.tables.ts'

export async function insertLayby(
  q: Queryable,
  orgId: string,
  l: {
    id: string
    customerId: string
    locationId: string
    currency: string
    lines: unknown
    subtotal: bigint
    discountTotal: bigint
    taxTotal: bigint
    total: bigint
    note: string
  },
): Promise<LaybyRow> {
  const result = await q.query<LaybyRow>(
    `INSERT INTO laybys (id, org_id, customer_id, location_id, status, currency, lines, subtotal, discount_total, tax_total, total, note)
     VALUES ($1, $2, $3, $4, 'open', $5, $6, $7, $8, $9, $10, $11) RETURNING ${laybyColumns}`,
    [
      l.id,
      orgId,
      l.customerId,
      l.locationId,
      l.currency,
      JSON.stringify(l.lines),
      l.subtotal.toString(),
      l.discountTotal.toString(),
      l.taxTotal.toString(),
      l.total.toString(),
      l.note,
    ],
  )
  return result.rows[0]
}

export async function laybyById(q: Queryable, orgId: string, id: string, lock = false): Promise<LaybyRow | undefined> {
  const result = await q.query<LaybyRow>(
    `SELECT ${laybyColumns} FROM laybys WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function listLaybys(
  q: Queryable,
  orgId: string,
  f: { afterId: string | null; status: string | null; customerId: string | null; limit: number },
): Promise<LaybyRow[]> {
  const result = await q.query<LaybyRow>(
    `SELECT ${laybyColumns} FROM laybys WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR status = $3)
       AND ($4::text IS NULL OR customer_id = $4) ORDER BY id LIMIT $5`,
    [orgId, f.afterId, f.status, f.customerId, f.limit],
  )
  return result.rows
}

export async function addPaid(q: Queryable, orgId: string, id: string, amount: bigint): Promise<LaybyRow> {
  const result = await q.query<LaybyRow>(
    `UPDATE laybys SET paid_total = paid_total + $3, version = version + 1, updated_at = now() WHERE org_id = $1 AND id = $2 RETURNING ${laybyColumns}`,
    [orgId, id, amount.toString()],
  )
  return result.rows[0]
}

export async function finish(
  q: Queryable,
  orgId: string,
  id: string,
  status: 'completed' | 'cancelled',
  orderId: string | null,
): Promise<LaybyRow> {
  const result = await q.query<LaybyRow>(
    `UPDATE laybys SET status = $3, order_id = $4, version = version + 1, updated_at = now() WHERE org_id = $1 AND id = $2 RETURNING ${laybyColumns}`,
    [orgId, id, status, orderId],
  )
  return result.rows[0]
}

/** Step 1 of a cancellation (docs/commerce.md "Lay-bys"): `cancelling`. */
export async function startCancelling(q: Queryable, orgId: string, id: string): Promise<LaybyRow> {
  const result = await q.query<LaybyRow>(
    `UPDATE laybys SET status = 'cancelling', version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${laybyColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}

/** The processor refused the cancellation's refunds: the lay-by is open again, as it was. */
export async function reopen(q: Queryable, orgId: string, id: string): Promise<LaybyRow> {
  const result = await q.query<LaybyRow>(
    `UPDATE laybys SET status = 'open', version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${laybyColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}
