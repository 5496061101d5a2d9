import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { actorOf, type RequestContext } from '../../platform/http/context.ts'
import * as repo from './orders.repo.ts'
import type { OrderStatus } from './orders.schemas.ts'
import type { OrderRow } from './orders.tables.ts'

/**
 * Every move an order's status can make (docs/commerce.md "Order states"). An order is made open, or completed
 * when it was paid before it reached us (a lay-by collected, a till's offline sale); from then on only these.
 */
const ORDER_MOVES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  open: ['completed', 'voided'],
  completed: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
  voided: [],
}

export function mayMove(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_MOVES[from].includes(to)
}

/**
 * Moves a locked order to `to` and writes the move into its history (who, why, approved by whom, at which till).
 * A move the table does not have is a bug of the caller, which checks first and answers its own 409.
 */
export async function moveStatus(
  q: Queryable,
  ctx: RequestContext,
  row: OrderRow,
  to: OrderStatus,
  reason: string,
  approvedBy: string | null = null,
): Promise<OrderRow> {
  if (!mayMove(row.status, to)) throw new Error(`an order cannot move from ${row.status} to ${to}`)
  const moved = await repo.setStatus(q, ctx.orgId, row.id, to)
  await repo.insertHistory(q, ctx.orgId, {
    id: newId('osh'),
    orderId: row.id,
    from: row.status,
    to,
    reason,
    actor: actorOf(ctx),
    approvedBy,
    registerId: ctx.actor.registerId ?? null,
  })
  return moved
}
