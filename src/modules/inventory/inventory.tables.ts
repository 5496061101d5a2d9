/** Row types and column lists of the inventory tables, once each. */

/** inventory_levels (db/migrations/0032_inventory.sql); variant_id is '' for a product without variants. */
export interface LevelRow {
  id: string
  product_id: string
  variant_id: string
  location_id: string
  on_hand: number
  reorder_point: number | null
  updated_at: Date
}

export const levelColumns = 'id, product_id, variant_id, location_id, on_hand, reorder_point, updated_at'

/** inventory_movements (db/migrations/0032_inventory.sql), the ledger. */
export interface MovementRow {
  id: string
  product_id: string
  variant_id: string
  location_id: string
  quantity: number
  reason: string
  quantity_before: number
  quantity_after: number
  reference_type: string | null
  reference_id: string | null
  note: string | null
  actor_kind: string
  actor_user_id: string | null
  actor_client_id: string
  occurred_at: Date
  created_at: Date
}

export const movementColumns =
  'id, product_id, variant_id, location_id, quantity, reason, quantity_before, quantity_after, reference_type, reference_id, note, actor_kind, actor_user_id, actor_client_id, occurred_at, created_at'

/** inventory_transfers (db/migrations/0032_inventory.sql). */
export interface TransferRow {
  id: string
  from_location_id: string
  to_location_id: string
  /** The only state a transfer has (migration 0032). */
  status: 'completed'
  note: string | null
  lines: { product_id: string; variant_id: string | null; quantity: number }[]
  actor_user_id: string | null
  actor_client_id: string
  created_at: Date
}

export const transferColumns =
  'id, from_location_id, to_location_id, status, note, lines, actor_user_id, actor_client_id, created_at'

/** The answer of the batch statement: a level it applied, joined to each of its new movements (if any). */
export interface BatchRow extends Partial<MovementRow> {
  /** 1-based index of the key this level belongs to. */
  k: number
  level_id: string
  on_hand: number
  reorder_point: number | null
  level_updated_at: Date
}
