import type { Queryable } from '../../platform/db/database.ts'
import { listDirection } from '../../platform/db/list-direction.ts'
import {
  type BatchRow,
  type LevelRow,
  levelColumns,
  type MovementRow,
  movementColumns,
  type TransferRow,
  transferColumns,
} from './inventory.tables.ts'

/** An item at a location: variant_id is '' for a product without variants. */
export interface ItemKey {
  productId: string
  variantId: string
  locationId: string
}

/**
 * Adds `delta` to a level, creating the row when missing. Only for changes that may not be refused
 * (a non-negative delta, or an org that allows negative stock). Returns the level after the change.
 */
export async function addToLevel(
  q: Queryable,
  orgId: string,
  newLevelId: string,
  key: ItemKey,
  delta: number,
): Promise<LevelRow> {
  const result = await q.prepared<LevelRow>(
    'inventory_level_add',
    `INSERT INTO inventory_levels (id, org_id, product_id, variant_id, location_id, on_hand)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (org_id, product_id, variant_id, location_id)
     DO UPDATE SET on_hand = inventory_levels.on_hand + EXCLUDED.on_hand, updated_at = now()
     RETURNING ${levelColumns}`,
    [newLevelId, orgId, key.productId, key.variantId, key.locationId, delta],
  )
  return result.rows[0]
}

/**
 * Takes `-delta` units out of a level in one statement that locks the row and re-checks the guard after any
 * concurrent writer commits, so two sales can never both take the last unit. Undefined: not enough stock
 * (a missing row holds none).
 */
export async function takeFromLevel(
  q: Queryable,
  orgId: string,
  key: ItemKey,
  delta: number,
): Promise<LevelRow | undefined> {
  const result = await q.prepared<LevelRow>(
    'inventory_level_take',
    `UPDATE inventory_levels SET on_hand = on_hand + $5, updated_at = now()
     WHERE org_id = $1 AND product_id = $2 AND variant_id = $3 AND location_id = $4 AND on_hand + $5 >= 0
     RETURNING ${levelColumns}`,
    [orgId, key.productId, key.variantId, key.locationId, delta],
  )
  return result.rows[0]
}

/** The net change of one level within a batch; keys are distinct and sorted (the lock order). */
export interface KeyDelta extends ItemKey {
  delta: number
}

/** One ledger row of a batch: `key` indexes the batch's keys, `rest` sums the later changes of the same key. */
export interface BatchMovement
  extends Omit<MovementInsert, 'productId' | 'variantId' | 'locationId' | 'before' | 'after'> {
  key: number
  rest: number
}

/** Who made a stock change, as the ledger records it. */
export interface MovementActor {
  kind: string
  userId: string | null
  clientId: string
}

/**
 * The statement of a batch, up to its final SELECT: locks the existing levels in key order (so concurrent batches
 * cannot deadlock), applies each key's net delta where a decrement leaves the level at or above zero, and, only
 * when every key was applied, writes the ledger rows with their before and after.
 */
const batchCtes = `WITH d AS (
       SELECT * FROM unnest($5::text[], $6::text[], $7::text[], $8::int[]) WITH ORDINALITY AS d(product_id, variant_id, location_id, delta, k)
     ), locked AS MATERIALIZED (
       -- One unique-index probe per key, locking as it goes, in the order of the keys (the caller's lock order):
       -- the cost stays the same however many levels the org has.
       SELECT l.id, d.delta, d.k::int AS k
       FROM d CROSS JOIN LATERAL (
         SELECT id FROM inventory_levels
         WHERE org_id = $1 AND product_id = d.product_id AND variant_id = d.variant_id AND location_id = d.location_id
         FOR UPDATE
       ) l
     ), upd AS (
       UPDATE inventory_levels l SET on_hand = l.on_hand + locked.delta, updated_at = now()
       FROM locked
       WHERE l.id = locked.id AND l.org_id = $1 AND (locked.delta >= 0 OR l.on_hand + locked.delta >= 0)
       RETURNING locked.k, l.id, l.product_id, l.variant_id, l.location_id, l.on_hand, l.reorder_point, l.updated_at
     ), mv AS (
       INSERT INTO inventory_movements (id, org_id, product_id, variant_id, location_id, quantity, reason, quantity_before,
         quantity_after, reference_type, reference_id, note, actor_kind, actor_user_id, actor_client_id, occurred_at)
       SELECT m.id, $1, u.product_id, u.variant_id, u.location_id, m.quantity, m.reason, u.on_hand - m.rest - m.quantity,
         u.on_hand - m.rest, m.ref_type, m.ref_id, m.note, $2, $3, $4, COALESCE(m.occurred_at, now())
       FROM unnest($9::text[], $10::int[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::timestamptz[], $17::int[])
         AS m(id, k, quantity, reason, ref_type, ref_id, note, occurred_at, rest)
       JOIN upd u ON u.k = m.k
       WHERE (SELECT count(*) FROM upd) = cardinality($5::text[])
       RETURNING ${movementColumns}
     )`

/**
 * Row estimates of the batch statement follow the length of its arrays, so for every short batch a fresh plan
 * looks cheaper than the generic one and PostgreSQL would plan it on each execution, which costs more than running
 * it. The generic plan (one unique-index probe per key) is right for any length. Sent with the statement, for the
 * rest of its transaction.
 */
function withGenericPlans(q: Queryable): Promise<unknown> {
  return q.prepared('generic_plans', "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)")
}

function batchParams(
  orgId: string,
  actor: MovementActor,
  keys: readonly KeyDelta[],
  movements: readonly BatchMovement[],
): unknown[] {
  const col = <K extends keyof BatchMovement>(k: K) => movements.map((m) => m[k])
  return [
    orgId,
    actor.kind,
    actor.userId,
    actor.clientId,
    keys.map((k) => k.productId),
    keys.map((k) => k.variantId),
    keys.map((k) => k.locationId),
    keys.map((k) => k.delta),
    col('id'),
    col('key').map((k) => k + 1),
    col('quantity'),
    col('reason'),
    col('referenceType'),
    col('referenceId'),
    col('note'),
    col('occurredAt'),
    col('rest'),
  ]
}

/**
 * The hot path of every stock change in one statement (batchCtes). Returns one row per applied key and movement;
 * keys missing from the answer had no level or too little stock, and then nothing was written to the ledger, so
 * the caller settles those keys one by one and writes the ledger itself.
 */
export async function applyBatch(
  q: Queryable,
  orgId: string,
  actor: MovementActor,
  keys: readonly KeyDelta[],
  movements: readonly BatchMovement[],
): Promise<BatchRow[]> {
  const [, result] = await Promise.all([
    withGenericPlans(q),
    q.prepared<BatchRow>(
      'inventory_apply_batch',
      `${batchCtes}
       SELECT u.k, u.id AS level_id, u.on_hand, u.reorder_point, u.updated_at AS level_updated_at, mv.*
       FROM upd u LEFT JOIN mv ON mv.product_id = u.product_id AND mv.variant_id = u.variant_id AND mv.location_id = u.location_id`,
      batchParams(orgId, actor, keys, movements),
    ),
  ])
  return result.rows
}

/** The SQLSTATE of a sale statement that refused itself (db/migrations/0065). */
export const SALE_NEEDS_FULL_PATH = 'OTS01'

/**
 * The same statement for a sale whose caller will not look at the answer (it commits right behind it): it fails,
 * and so rolls back its whole transaction, unless every key was applied and no level crossed zero or its reorder
 * point. Everything else (a missing level, a shortfall, an alert to emit) is left to applyBatch and its settling.
 */
export async function applySale(
  q: Queryable,
  orgId: string,
  actor: MovementActor,
  keys: readonly KeyDelta[],
  movements: readonly BatchMovement[],
): Promise<void> {
  await Promise.all([
    withGenericPlans(q),
    q.prepared(
      'inventory_apply_sale',
      `${batchCtes}
     SELECT inventory_sale_applied(
       (SELECT count(*) FROM upd) = cardinality($5::text[])
       AND NOT EXISTS (
         SELECT 1 FROM upd u JOIN d ON d.k = u.k
         WHERE (u.on_hand <= 0 AND u.on_hand - d.delta > 0)
           OR (u.reorder_point IS NOT NULL AND u.on_hand <= u.reorder_point AND u.on_hand - d.delta > u.reorder_point)
       )
     )`,
      batchParams(orgId, actor, keys, movements),
    ),
  ])
}

/** Locks and reads one level (for a physical count, which sets the level from what it is now). */
export async function lockLevel(q: Queryable, orgId: string, key: ItemKey): Promise<LevelRow | undefined> {
  const result = await q.query<LevelRow>(
    `SELECT ${levelColumns} FROM inventory_levels
     WHERE org_id = $1 AND product_id = $2 AND variant_id = $3 AND location_id = $4 FOR UPDATE`,
    [orgId, key.productId, key.variantId, key.locationId],
  )
  return result.rows[0]
}

export async function setReorderPoint(
  q: Queryable,
  orgId: string,
  newLevelId: string,
  key: ItemKey,
  reorderPoint: number | null,
): Promise<LevelRow> {
  const result = await q.query<LevelRow>(
    `INSERT INTO inventory_levels (id, org_id, product_id, variant_id, location_id, on_hand, reorder_point)
     VALUES ($1, $2, $3, $4, $5, 0, $6)
     ON CONFLICT (org_id, product_id, variant_id, location_id)
     DO UPDATE SET reorder_point = EXCLUDED.reorder_point, updated_at = now()
     RETURNING ${levelColumns}`,
    [newLevelId, orgId, key.productId, key.variantId, key.locationId, reorderPoint],
  )
  return result.rows[0]
}

interface MovementInsert {
  id: string
  productId: string
  variantId: string
  locationId: string
  quantity: number
  reason: string
  before: number
  after: number
  referenceType: string | null
  referenceId: string | null
  note: string | null
  occurredAt: Date | null
}

/** Writes many ledger rows in one statement. */
export async function insertMovements(
  q: Queryable,
  orgId: string,
  actor: MovementActor,
  rows: MovementInsert[],
): Promise<MovementRow[]> {
  const col = <K extends keyof MovementInsert>(k: K) => rows.map((r) => r[k])
  const result = await q.prepared<MovementRow>(
    'inventory_movements_insert',
    `INSERT INTO inventory_movements (id, org_id, product_id, variant_id, location_id, quantity, reason, quantity_before,
       quantity_after, reference_type, reference_id, note, actor_kind, actor_user_id, actor_client_id, occurred_at)
     SELECT m.id, $1, m.product_id, m.variant_id, m.location_id, m.quantity, m.reason, m.before, m.after, m.ref_type,
       m.ref_id, m.note, $2, $3, $4, COALESCE(m.occurred_at, now())
     FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::int[], $12::int[],
       $13::text[], $14::text[], $15::text[], $16::timestamptz[])
       AS m(id, product_id, variant_id, location_id, quantity, reason, before, after, ref_type, ref_id, note, occurred_at)
     RETURNING ${movementColumns}`,
    [
      orgId,
      actor.kind,
      actor.userId,
      actor.clientId,
      col('id'),
      col('productId'),
      col('variantId'),
      col('locationId'),
      col('quantity'),
      col('reason'),
      col('before'),
      col('after'),
      col('referenceType'),
      col('referenceId'),
      col('note'),
      col('occurredAt'),
    ],
  )
  return result.rows
}

interface LevelFilter {
  afterId?: string
  locationId?: string
  productId?: string
  variantId?: string
  /** Only levels at or below their reorder point, or at or below zero. */
  alertsOnly?: boolean
  limit: number
}

export async function listLevels(q: Queryable, orgId: string, f: LevelFilter): Promise<LevelRow[]> {
  const result = await q.query<LevelRow>(
    `SELECT ${levelColumns} FROM inventory_levels
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR location_id = $3)
       AND ($4::text IS NULL OR product_id = $4) AND ($5::text IS NULL OR variant_id = $5)
       AND (NOT $6::boolean OR on_hand <= 0 OR on_hand <= reorder_point)
     ORDER BY id LIMIT $7`,
    [
      orgId,
      f.afterId ?? null,
      f.locationId ?? null,
      f.productId ?? null,
      f.variantId ?? null,
      f.alertsOnly ?? false,
      f.limit,
    ],
  )
  return result.rows
}

interface MovementFilter {
  afterId?: string
  productId?: string
  variantId?: string
  locationId?: string
  reason?: string
  referenceType?: string
  referenceId?: string
  from?: Date
  to?: Date
  order?: 'oldest' | 'newest'
  limit: number
}

export async function listMovements(q: Queryable, orgId: string, f: MovementFilter): Promise<MovementRow[]> {
  const { after, sort } = listDirection(f.order)
  const result = await q.query<MovementRow>(
    `SELECT ${movementColumns} FROM inventory_movements
     WHERE org_id = $1 AND ($2::text IS NULL OR id ${after} $2) AND ($3::text IS NULL OR product_id = $3)
       AND ($4::text IS NULL OR variant_id = $4) AND ($5::text IS NULL OR location_id = $5)
       AND ($6::text IS NULL OR reason = $6) AND ($7::text IS NULL OR reference_type = $7)
       AND ($8::text IS NULL OR reference_id = $8)
       AND ($9::timestamptz IS NULL OR occurred_at >= $9) AND ($10::timestamptz IS NULL OR occurred_at < $10)
     ORDER BY id ${sort} LIMIT $11`,
    [
      orgId,
      f.afterId ?? null,
      f.productId ?? null,
      f.variantId ?? null,
      f.locationId ?? null,
      f.reason ?? null,
      f.referenceType ?? null,
      f.referenceId ?? null,
      f.from ?? null,
      f.to ?? null,
      f.limit,
    ],
  )
  return result.rows
}

export async function insertTransfer(
  q: Queryable,
  orgId: string,
  t: { id: string; fromLocationId: string; toLocationId: string; note: string | null; lines: TransferRow['lines'] },
  actor: { userId: string | null; clientId: string },
): Promise<TransferRow> {
  const result = await q.query<TransferRow>(
    `INSERT INTO inventory_transfers (id, org_id, from_location_id, to_location_id, note, lines, actor_user_id, actor_client_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${transferColumns}`,
    [t.id, orgId, t.fromLocationId, t.toLocationId, t.note, JSON.stringify(t.lines), actor.userId, actor.clientId],
  )
  return result.rows[0]
}

export async function transferById(q: Queryable, orgId: string, id: string): Promise<TransferRow | undefined> {
  const result = await q.query<TransferRow>(
    `SELECT ${transferColumns} FROM inventory_transfers WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

/** Units on hand of each item, over every location or one (reports' valuation). */
export async function onHandByItem(q: Queryable, orgId: string, locationId: string | null) {
  const result = await q.query<{ product_id: string; variant_id: string; on_hand: string }>(
    `SELECT product_id, variant_id, sum(on_hand) AS on_hand FROM inventory_levels
     WHERE org_id = $1 AND ($2::text IS NULL OR location_id = $2)
     GROUP BY product_id, variant_id HAVING sum(on_hand) <> 0 ORDER BY product_id, variant_id`,
    [orgId, locationId],
  )
  return result.rows
}
