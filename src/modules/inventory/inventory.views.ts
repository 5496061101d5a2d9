/** Rows into the REST shapes of levels, movements and transfers (also the `data` of their events). */
import type { Level, Movement, Transfer } from './inventory.schemas.ts'
import type { LevelRow, MovementRow, TransferRow } from './inventory.tables.ts'

/** Low means at or below the reorder point; out means at or below zero (negative when the org allows it). */
export function levelStatus(onHand: number, reorderPoint: number | null): Level['status'] {
  if (onHand <= 0) return 'out_of_stock'
  if (reorderPoint !== null && onHand <= reorderPoint) return 'low_stock'
  return 'in_stock'
}

export function toLevel(row: LevelRow): Level {
  return {
    id: row.id,
    product_id: row.product_id,
    variant_id: row.variant_id || null,
    location_id: row.location_id,
    on_hand: row.on_hand,
    reorder_point: row.reorder_point,
    status: levelStatus(row.on_hand, row.reorder_point),
    updated_at: row.updated_at,
  }
}

export function toMovement(row: MovementRow): Movement {
  return {
    id: row.id,
    product_id: row.product_id,
    variant_id: row.variant_id || null,
    location_id: row.location_id,
    quantity: row.quantity,
    reason: row.reason,
    quantity_before: row.quantity_before,
    quantity_after: row.quantity_after,
    reference: row.reference_type && row.reference_id ? { type: row.reference_type, id: row.reference_id } : null,
    note: row.note,
    actor: { kind: row.actor_kind, user_id: row.actor_user_id, client_id: row.actor_client_id },
    occurred_at: row.occurred_at,
    created_at: row.created_at,
  }
}

export function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    from_location_id: row.from_location_id,
    to_location_id: row.to_location_id,
    status: row.status,
    note: row.note,
    lines: row.lines,
    actor: { user_id: row.actor_user_id, client_id: row.actor_client_id },
    created_at: row.created_at,
  }
}
