import type * as repo from './inventory.repo.ts'

/** REST shapes of levels, movements and transfers (also the `data` of their events). */
export interface Level {
  id: string
  product_id: string
  variant_id: string | null
  location_id: string
  on_hand: number
  reorder_point: number | null
  status: 'in_stock' | 'low_stock' | 'out_of_stock'
  updated_at: Date
}

export interface Movement {
  id: string
  product_id: string
  variant_id: string | null
  location_id: string
  quantity: number
  reason: string
  quantity_before: number
  quantity_after: number
  reference: { type: string; id: string } | null
  note: string | null
  actor: { kind: string; user_id: string | null; client_id: string }
  occurred_at: Date
  created_at: Date
}

export interface Transfer {
  id: string
  from_location_id: string
  to_location_id: string
  status: string
  note: string | null
  lines: { product_id: string; variant_id: string | null; quantity: number }[]
  actor: { user_id: string | null; client_id: string }
  created_at: Date
}

/** Low means at or below the reorder point; out means at or below zero (negative when the org allows it). */
export function levelStatus(onHand: number, reorderPoint: number | null): Level['status'] {
  if (onHand <= 0) return 'out_of_stock'
  if (reorderPoint !== null && onHand <= reorderPoint) return 'low_stock'
  return 'in_stock'
}

export function toLevel(row: repo.LevelRow): Level {
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

export function toMovement(row: repo.MovementRow): Movement {
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

export function toTransfer(row: repo.TransferRow): Transfer {
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
