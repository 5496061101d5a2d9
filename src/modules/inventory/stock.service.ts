import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { variantsByIds } from './catalog-lookups.ts'
import { InventoryErrors } from './inventory.errors.ts'
import * as repo from './inventory.repo.ts'
import type { Movement, StockReason } from './inventory.schemas.ts'
import type { LevelRow, MovementRow } from './inventory.tables.ts'
import { levelStatus, toLevel, toMovement } from './inventory.views.ts'
import type { BundleComponent, CatalogPort, LocationsPort, OrgsPort } from './ports.ts'

/** One signed change of one item's stock at a location, as orders, lay-bys and stock keeping ask for it. */
interface StockChange {
  productId: string
  variantId?: string | null
  locationId: string
  /** Signed delta in whole units. */
  quantity: number
  reason: StockReason
  reference?: { type: string; id: string }
  /** The request field to name in errors, e.g. `lines.2`. */
  field?: string
  note?: string | null
  /** When it happened according to the client (offline tills); defaults to now. */
  occurredAt?: Date | null
  /**
   * What the catalog says the product draws down, as read by the caller inside the same transaction: a bundle's
   * components, or empty for a plain product. When every change carries it, inventory skips its own look-up
   * (orders price and take stock in one transaction, and the quote already read it).
   */
  components?: readonly BundleComponent[]
}

/** A change after bundle expansion, with the key of the level row it touches. */
interface Entry {
  key: repo.ItemKey
  quantity: number
  change: StockChange
  field: string
}

const keyText = (k: repo.ItemKey) => `${k.productId}\u0000${k.variantId}\u0000${k.locationId}`
const unique = (values: Iterable<string>) => [...new Set(values)]

/**
 * The one way stock changes. Everything runs in the caller's transaction (ctx.db.tx joins it), so a refusal
 * rolls back the caller's whole unit of work, e.g. the order that wanted the stock.
 */
export function createStockService(deps: { orgs: OrgsPort; catalog: CatalogPort; locations: LocationsPort }) {
  const { orgs, catalog, locations } = deps

  /** Bundles draw down their components: one entry per component, quantity multiplied. */
  async function expand(ctx: RequestContext, changes: readonly StockChange[]): Promise<Entry[]> {
    if (changes.every((c) => c.components !== undefined)) return expandKnown(changes)
    return expandWith(changes, await catalog.bundles.componentsOf(ctx, unique(changes.map((c) => c.productId))))
  }

  /** expand() for changes that carry their components (an empty list is a plain product). */
  function expandKnown(changes: readonly StockChange[]): Entry[] {
    return expandWith(
      changes,
      new Map(changes.flatMap((c) => (c.components?.length ? [[c.productId, [...c.components]]] : []))),
    )
  }

  function expandWith(
    changes: readonly StockChange[],
    components: ReadonlyMap<string, readonly BundleComponent[]>,
  ): Entry[] {
    return changes.flatMap((change, i) => {
      const field = change.field ?? `changes.${i}`
      if (!Number.isSafeInteger(change.quantity))
        throw invalid(field, 'quantity must be a whole number', 'invalid_quantity')
      // A bundle draws down its counted components, which may be none.
      const parts = components.get(change.productId)
      if (parts) {
        return parts.map((p) => ({
          key: { productId: p.productId, variantId: p.variantId ?? '', locationId: change.locationId },
          quantity: change.quantity * p.quantity,
          change,
          field,
        }))
      }
      return [
        {
          key: { productId: change.productId, variantId: change.variantId ?? '', locationId: change.locationId },
          quantity: change.quantity,
          change,
          field,
        },
      ]
    })
  }

  /** 422s for items and locations that are not the org's; returns the names insufficient-stock messages use. */
  async function resolve(ctx: RequestContext, entries: readonly Entry[]) {
    const products = new Map(
      (await catalog.products.byIds(ctx, unique(entries.map((e) => e.key.productId)))).map((p) => [p.id, p]),
    )
    const variantIds = unique(entries.flatMap((e) => (e.key.variantId ? [e.key.variantId] : [])))
    const variants = await variantsByIds(catalog, ctx, variantIds)
    const places = new Map(
      (await locations.byIds(ctx, unique(entries.map((e) => e.key.locationId)))).map((l) => [l.id, l]),
    )
    for (const e of entries) {
      if (!products.has(e.key.productId))
        throw invalid(e.field, `product ${e.key.productId} is not a product of this org`, 'not_found')
      if (e.key.variantId && variants.get(e.key.variantId)?.product_id !== e.key.productId) {
        throw invalid(e.field, `variant ${e.key.variantId} is not a variant of product ${e.key.productId}`, 'not_found')
      }
      if (!places.has(e.key.locationId))
        throw invalid(e.field, `location ${e.key.locationId} is not a location of this org`, 'not_found')
    }
    const skuOf = (k: repo.ItemKey) =>
      (k.variantId && variants.get(k.variantId)?.sku) || products.get(k.productId)?.sku || k.productId
    const placeOf = (id: string) => places.get(id)?.name ?? id
    return { skuOf, placeOf }
  }

  /** Groups entries by level: distinct keys in lock order, each entry pointing at its key. */
  function group(entries: readonly Entry[]) {
    const index = new Map<string, number>()
    const sorted = [...new Set(entries.map((e) => keyText(e.key)))].sort()
    for (const [i, text] of sorted.entries()) index.set(text, i)
    const keys: repo.KeyDelta[] = sorted.map(() => ({ productId: '', variantId: '', locationId: '', delta: 0 }))
    const keyOf = entries.map((e) => {
      const k = index.get(keyText(e.key))!
      keys[k] = { ...e.key, delta: keys[k].delta + e.quantity }
      return k
    })
    // What the later entries of the same key add, so each movement's before and after follow the callers' order.
    const rest = entries.map((_, i) =>
      entries.reduce((sum, e, j) => (j > i && keyOf[j] === keyOf[i] ? sum + e.quantity : sum), 0),
    )
    return { keys, keyOf, rest }
  }

  /**
   * The keys the batch statement could not apply: a level that does not exist yet (validated first, then created)
   * or a decrement below zero (refused with a 409 naming the entry's field, unless the org allows negative stock).
   */
  async function settleRest(
    ctx: RequestContext,
    q: Queryable,
    entries: readonly Entry[],
    keys: readonly repo.KeyDelta[],
    keyOf: readonly number[],
    applied: Map<number, Applied>,
    belowZero: boolean,
  ) {
    const names = await resolve(ctx, entries)
    let allowNegative: boolean | undefined = belowZero || undefined
    for (const [k, key] of keys.entries()) {
      if (applied.has(k)) continue
      if (key.delta < 0 && allowNegative === undefined) allowNegative = (await orgs.getOrg(ctx)).allow_negative_stock
      const level =
        key.delta >= 0 || allowNegative
          ? await repo.addToLevel(q, ctx.orgId, newId('lvl'), key, key.delta)
          : await repo.takeFromLevel(q, ctx.orgId, key, key.delta)
      if (!level) {
        const entry = entries[keyOf.indexOf(k)]
        const current = await repo.lockLevel(q, ctx.orgId, key)
        const message = `insufficient stock for ${names.skuOf(key)} at ${names.placeOf(key.locationId)}: ${current?.on_hand ?? 0} on hand, ${-key.delta} wanted`
        throw InventoryErrors.INSUFFICIENT_STOCK(message, {
          errors: [{ field: entry.field, message, code: 'insufficient_stock' }],
        })
      }
      applied.set(k, { level, before: level.on_hand - key.delta })
    }
  }

  /** The batch statement's ledger rows, one per entry, in the callers' order. */
  function batchMovements(
    entries: readonly Entry[],
    keyOf: readonly number[],
    rest: readonly number[],
    movementIds: readonly string[],
  ): repo.BatchMovement[] {
    return entries.map((e, i) => ({
      id: movementIds[i],
      key: keyOf[i],
      rest: rest[i],
      quantity: e.quantity,
      reason: e.change.reason,
      referenceType: e.change.reference?.type ?? null,
      referenceId: e.change.reference?.id ?? null,
      note: e.change.note ?? null,
      occurredAt: e.change.occurredAt ?? null,
    }))
  }

  const movementActorOf = (ctx: RequestContext): repo.MovementActor => ({
    kind: ctx.actor.kind,
    userId: ctx.actor.userId,
    clientId: ctx.actor.clientId,
  })

  return {
    /**
     * A sale's stock as one statement that its caller may commit right behind without waiting for the answer
     * (CommitNow). Returns the function that issues it, at once, in the caller's transaction; the statement
     * refuses itself (isSaleRefusal) unless every level exists, has enough and crosses no alert threshold, and the
     * caller then starts over with applyChanges. Null when the changes do not carry their bundle components.
     */
    prepareSale(ctx: RequestContext, changes: readonly StockChange[]): (() => Promise<void>) | null {
      if (changes.length === 0 || !changes.every((c) => c.components !== undefined)) return null
      const entries = expandKnown(changes)
      const { keys, keyOf, rest } = group(entries)
      const movements = batchMovements(
        entries,
        keyOf,
        rest,
        entries.map(() => newId('imv')),
      )
      return () => ctx.db.tx((q) => repo.applySale(q, ctx.orgId, movementActorOf(ctx), keys, movements))
    },

    /**
     * Applies signed stock changes atomically inside the caller's transaction. Levels are locked in sorted key
     * order (no deadlocks between concurrent callers) and a decrement is a guarded UPDATE, so concurrent sales can
     * never oversell. Below zero is refused with a 409 naming `field` unless the org allows negative stock, or
     * `belowZero` says the sale already happened (a till's offline sale: `inventory.negative` tells it).
     * Writes one ledger movement per change and emits `inventory.low_stock` / `inventory.stockout` on crossings.
     * A sale of stocked items is one statement; new levels and shortfalls take the slower path.
     */
    async applyChanges(
      ctx: RequestContext,
      changes: readonly StockChange[],
      options: { belowZero?: boolean } = {},
    ): Promise<Movement[]> {
      if (changes.length === 0) return []
      return ctx.db.tx(async (q) => {
        const entries = await expand(ctx, changes)
        const { keys, keyOf, rest } = group(entries)
        const movementIds = entries.map(() => newId('imv'))
        const actor = movementActorOf(ctx)
        const batch = await repo.applyBatch(
          q,
          ctx.orgId,
          actor,
          keys,
          batchMovements(entries, keyOf, rest, movementIds),
        )
        const applied = new Map<number, Applied>()
        for (const r of batch) {
          const key = keys[r.k - 1]
          const level: LevelRow = {
            id: r.level_id,
            product_id: key.productId,
            variant_id: key.variantId,
            location_id: key.locationId,
            on_hand: r.on_hand,
            reorder_point: r.reorder_point,
            updated_at: r.level_updated_at,
          }
          applied.set(r.k - 1, { level, before: r.on_hand - key.delta })
        }
        let rows = batch.filter((r) => r.id != null) as unknown as MovementRow[]
        if (applied.size < keys.length) {
          await settleRest(ctx, q, entries, keys, keyOf, applied, options.belowZero ?? false)
          rows = await repo.insertMovements(
            q,
            ctx.orgId,
            actor,
            entries.map((e, i) => {
              const after = applied.get(keyOf[i])!.level.on_hand - rest[i]
              return {
                id: movementIds[i],
                productId: e.key.productId,
                variantId: e.key.variantId,
                locationId: e.key.locationId,
                quantity: e.quantity,
                reason: e.change.reason,
                before: after - e.quantity,
                after,
                referenceType: e.change.reference?.type ?? null,
                referenceId: e.change.reference?.id ?? null,
                note: e.change.note ?? null,
                occurredAt: e.change.occurredAt ?? null,
              }
            }),
          )
        }
        for (const { before, level } of applied.values()) {
          await emitCrossings(q, ctx.orgId, before, level)
          // A sale synced from a till that was offline may take stock below zero: each time it does, it is told.
          if (options.belowZero && level.on_hand < 0 && level.on_hand < before)
            await emitEvent(q, ctx.orgId, 'inventory.negative', toLevel(level))
        }
        // Ids are monotonic ULIDs made in the callers' order; RETURNING order is not guaranteed.
        return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map(toMovement)
      })
    },
  }
}

/** A level and what it held before this batch. */
interface Applied {
  level: LevelRow
  before: number
}

/** `inventory.stockout` when a level reaches zero, `inventory.low_stock` when it falls to its reorder point. */
async function emitCrossings(q: Queryable, orgId: string, before: number, level: LevelRow): Promise<void> {
  const after = level.on_hand
  const was = levelStatus(before, level.reorder_point)
  const now = levelStatus(after, level.reorder_point)
  const view = toLevel(level)
  if (now === 'out_of_stock' && was !== 'out_of_stock') await emitEvent(q, orgId, 'inventory.stockout', view)
  const wasLow = level.reorder_point !== null && before <= level.reorder_point
  const isLow = level.reorder_point !== null && after <= level.reorder_point
  if (isLow && !wasLow) await emitEvent(q, orgId, 'inventory.low_stock', view)
}

/** The error of a sale statement that refused itself (prepareSale): retry with applyChanges. */
export function isSaleRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === repo.SALE_NEEDS_FULL_PATH
}
