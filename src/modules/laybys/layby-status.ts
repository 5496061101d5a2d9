import type { Queryable } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import * as repo from './laybys.repo.ts'
import type { LaybyStatus } from './laybys.schemas.ts'
import type { LaybyRow } from './laybys.tables.ts'

/**
 * Every move a lay-by's status can make (docs/commerce.md "Lay-bys"): collected when paid, or cancelled in steps
 * (`cancelling` while its refunds are under way, open again when the processor refuses them). A cancellation a
 * crash interrupted starts again from `cancelling`.
 */
const LAYBY_MOVES: Readonly<Record<LaybyStatus, readonly LaybyStatus[]>> = {
  open: ['completed', 'cancelling'],
  cancelling: ['cancelling', 'cancelled', 'open'],
  completed: [],
  cancelled: [],
}

export function mayMove(from: LaybyStatus, to: LaybyStatus): boolean {
  return LAYBY_MOVES[from].includes(to)
}

/** A move and what it records with the status. */
export type LaybyMove =
  | { to: 'completed'; orderId: string }
  | { to: 'cancelling' }
  | { to: 'open' }
  | { to: 'cancelled' }

/**
 * Moves a locked lay-by. A move the table does not have is a bug of the caller, which checks first (mayMove) and
 * answers its own 409.
 */
export async function moveLayby(q: Queryable, ctx: RequestContext, row: LaybyRow, move: LaybyMove): Promise<LaybyRow> {
  if (!mayMove(row.status, move.to)) throw new Error(`a lay-by cannot move from ${row.status} to ${move.to}`)
  switch (move.to) {
    case 'completed':
      return repo.finish(q, ctx.orgId, row.id, 'completed', move.orderId)
    case 'cancelled':
      return repo.finish(q, ctx.orgId, row.id, 'cancelled', null)
    case 'cancelling':
      return repo.startCancelling(q, ctx.orgId, row.id)
    case 'open':
      return repo.reopen(q, ctx.orgId, row.id)
  }
}
