import { newId } from '../../platform/crypto/ids.ts'
import { AppError, invalid } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { variantsByIds } from './catalog-lookups.ts'
import * as repo from './inventory.repo.ts'
import type { CatalogPort, LocationsPort, OrgsPort, StockChange } from './inventory.types.ts'
import { levelStatus, type Movement, toLevel, toMovement } from './inventory.views.ts'

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
    const components = await catalog.bundles.componentsOf(ctx, unique(changes.map((c) => c.productId)))
    return changes.flatMap((change, i) => {
      const field = change.field ?? `changes.${i}`
      if (!Number.isSafeInteger(change.quantity)) throw invalid(field, 'quantity must be a whole number', 'invalid_quantity')
      const parts = components.get(change.productId)
      if (parts && parts.length > 0) {
        return parts.map((p) => ({
          key: { productId: p.productId, variantId: p.variantId ?? '', locationId: change.locationId },
          quantity: change.quantity * p.quantity,
          change,
          field,
        }))
      }
      return [{ key: { productId: change.productId, variantId: change.variantId ?? '', locationId: change.locationId }, quantity: change.quantity, change, field }]
    })
  }

  /** 422s for items and locations that are not the org's; returns the names insufficient-stock messages use. */
  async function resolve(ctx: RequestContext, entries: readonly Entry[]) {
    const products = new Map((await catalog.products.byIds(ctx, unique(entries.map((e) => e.key.productId)))).map((p) => [p.id, p]))
    const variantIds = unique(entries.flatMap((e) => (e.key.variantId ? [e.key.variantId] : [])))
    const variants = await variantsByIds(catalog, ctx, variantIds)
    const places = new Map((await locations.byIds(ctx, unique(entries.map((e) => e.key.locationId)))).map((l) => [l.id, l]))
    for (const e of entries) {
      if (!products.has(e.key.productId)) throw invalid(e.field, `product ${e.key.productId} is not a product of this org`, 'not_found')
      if (e.key.variantId && variants.get(e.key.variantId)?.product_id !== e.key.productId) {
        throw invalid(e.field, `variant ${e.key.variantId} is not a variant of product ${e.key.productId}`, 'not_found')
      }
      if (!places.has(e.key.locationId)) throw invalid(e.field, `location ${e.key.locationId} is not a location of this org`, 'not_found')
    }
    const skuOf = (k: repo.ItemKey) => (k.variantId && variants.get(k.variantId)?.sku) || products.get(k.productId)?.sku || k.productId
    const placeOf = (id: string) => places.get(id)?.name ?? id
    return { skuOf, placeOf }
  }

  return {
    /**
     * Applies signed stock changes atomically inside the caller's transaction. Rows are touched in sorted key
     * order (no deadlocks between concurrent callers); a decrement is one guarded UPDATE, so concurrent sales
     * can never oversell. Below zero is refused with a 409 naming `field` unless the org allows negative stock.
     * Writes one ledger movement per change and emits `inventory.low_stock` / `inventory.stockout` on crossings.
     */
    async applyChanges(ctx: RequestContext, changes: readonly StockChange[]): Promise<Movement[]> {
      if (changes.length === 0) return []
      return ctx.db.tx(async (q) => {
        const entries = await expand(ctx, changes)
        const names = await resolve(ctx, entries)
        const allowNegative = entries.some((e) => e.quantity < 0) ? (await orgs.getOrg(ctx)).allow_negative_stock : true
        const order = entries.map((_, i) => i).sort((a, b) => {
          const ka = keyText(entries[a].key)
          const kb = keyText(entries[b].key)
          return ka < kb ? -1 : ka > kb ? 1 : a - b
        })
        const results: { before: number; after: number; level: repo.LevelRow }[] = new Array(entries.length)
        for (const i of order) {
          const e = entries[i]
          const level =
            e.quantity >= 0 || allowNegative
              ? await repo.addToLevel(q, ctx.orgId, newId('lvl'), e.key, e.quantity)
              : await repo.takeFromLevel(q, ctx.orgId, e.key, e.quantity)
          if (!level) {
            const current = await repo.lockLevel(q, ctx.orgId, e.key)
            const message = `insufficient stock for ${names.skuOf(e.key)} at ${names.placeOf(e.key.locationId)}: ${current?.on_hand ?? 0} on hand, ${-e.quantity} wanted`
            throw new AppError('conflict', message, { errors: [{ field: e.field, message, code: 'insufficient_stock' }] })
          }
          results[i] = { before: level.on_hand - e.quantity, after: level.on_hand, level }
        }
        const rows = await repo.insertMovements(
          q,
          ctx.orgId,
          { kind: ctx.actor.kind, userId: ctx.actor.userId, clientId: ctx.actor.clientId },
          entries.map((e, i) => ({
            id: newId('imv'),
            productId: e.key.productId,
            variantId: e.key.variantId,
            locationId: e.key.locationId,
            quantity: e.quantity,
            reason: e.change.reason,
            before: results[i].before,
            after: results[i].after,
            referenceType: e.change.reference?.type ?? null,
            referenceId: e.change.reference?.id ?? null,
            note: e.change.note ?? null,
            occurredAt: e.change.occurredAt ?? null,
          })),
        )
        for (const { before, after, level } of results) {
          const was = levelStatus(before, level.reorder_point)
          const now = levelStatus(after, level.reorder_point)
          const view = { ...toLevel(level), on_hand: after, status: now }
          if (now === 'out_of_stock' && was !== 'out_of_stock') await emitEvent(q, ctx.orgId, 'inventory.stockout', view)
          const wasLow = level.reorder_point !== null && before <= level.reorder_point
          const isLow = level.reorder_point !== null && after <= level.reorder_point
          if (isLow && !wasLow) await emitEvent(q, ctx.orgId, 'inventory.low_stock', view)
        }
        // Ids are monotonic ULIDs made in the callers' order; RETURNING order is not guaranteed.
        return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map(toMovement)
      })
    },
  }
}

export type StockService = ReturnType<typeof createStockService>
