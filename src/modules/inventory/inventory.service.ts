import { newId } from '../../platform/crypto/ids.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { variantsByIds } from './catalog-lookups.ts'
import * as repo from './inventory.repo.ts'
import type {
  AdjustBody,
  AdjustReason,
  AlertListQuery,
  Level,
  LevelListQuery,
  Movement,
  MovementListQuery,
  ReorderPointBody,
  Transfer,
  TransferBody,
} from './inventory.schemas.ts'
import { toLevel, toMovement, toTransfer } from './inventory.views.ts'
import type { CatalogPort, LocationsPort, OrgsPort } from './ports.ts'
import { createStockService, isSaleRefusal } from './stock.service.ts'

/** An item at a location, as the request bodies name it. */
type ItemInput = Omit<ReorderPointBody, 'reorder_point'>

/** Received stock and returns only add, losses only remove; corrections go either way; a count sets the level. */
const SIGN: Record<Exclude<AdjustReason, 'count'>, 'positive' | 'negative' | 'any'> = {
  received: 'positive',
  return: 'positive',
  damaged: 'negative',
  theft: 'negative',
  correction: 'any',
}

/** A client clock may run a little ahead; further than this into the future is a mistake. */
const CLOCK_SKEW_MS = 5 * 60_000

export function createInventoryService(deps: { orgs: OrgsPort; catalog: CatalogPort; locations: LocationsPort }) {
  const stock = createStockService(deps)
  const { catalog, locations } = deps

  /** 422 naming the field unless product, variant and location are the org's; bundles hold no stock of their own. */
  async function checkItem(ctx: RequestContext, item: ItemInput, prefix = '') {
    const [product] = await catalog.products.byIds(ctx, [item.product_id])
    if (!product) throw invalid(`${prefix}product_id`, 'does not name a product of this org', 'not_found')
    if ((await catalog.bundles.componentsOf(ctx, [item.product_id])).has(item.product_id)) {
      throw invalid(
        `${prefix}product_id`,
        'is a bundle, which holds no stock of its own: adjust its components',
        'bundle',
      )
    }
    if (item.variant_id) {
      const variant = (await variantsByIds(catalog, ctx, [item.variant_id])).get(item.variant_id)
      if (variant?.product_id !== item.product_id)
        throw invalid(`${prefix}variant_id`, 'does not name a variant of this product', 'not_found')
    }
    if (item.location_id !== undefined) {
      const [location] = await locations.byIds(ctx, [item.location_id])
      if (!location) throw invalid(`${prefix}location_id`, 'does not name a location of this org', 'not_found')
    }
  }

  function occurredAt(text: string | undefined): Date | null {
    if (text === undefined) return null
    const at = new Date(text)
    if (Number.isNaN(at.getTime())) throw invalid('occurred_at', 'is not a timestamp', 'invalid_format')
    if (at.getTime() > Date.now() + CLOCK_SKEW_MS) throw invalid('occurred_at', 'is in the future', 'out_of_range')
    return at
  }

  return {
    applyChanges: stock.applyChanges,
    prepareSale: stock.prepareSale,
    isSaleRefusal,

    /** A manual adjustment, or for reason `count` a physical count that sets the level to `quantity`. */
    async adjust(ctx: RequestContext, input: AdjustBody): Promise<Movement> {
      const when = occurredAt(input.occurred_at)
      if (input.reason === 'count') {
        if (input.quantity < 0)
          throw invalid('quantity', 'is the counted quantity for reason count and must not be negative', 'out_of_range')
      } else {
        const sign = SIGN[input.reason]
        if (input.quantity === 0) throw invalid('quantity', 'must not be zero', 'out_of_range')
        if (sign === 'positive' && input.quantity < 0)
          throw invalid('quantity', `must be positive for reason ${input.reason}`, 'out_of_range')
        if (sign === 'negative' && input.quantity > 0)
          throw invalid('quantity', `must be negative for reason ${input.reason}`, 'out_of_range')
      }
      return ctx.db.tx(async (q) => {
        await checkItem(ctx, input)
        let delta = input.quantity
        if (input.reason === 'count') {
          // The lock holds the level still between reading it and setting it.
          const key = { productId: input.product_id, variantId: input.variant_id ?? '', locationId: input.location_id }
          delta = input.quantity - ((await repo.lockLevel(q, ctx.orgId, key))?.on_hand ?? 0)
        }
        const [movement] = await stock.applyChanges(ctx, [
          {
            productId: input.product_id,
            variantId: input.variant_id ?? null,
            locationId: input.location_id,
            quantity: delta,
            reason: input.reason,
            field: 'quantity',
            note: input.note ?? null,
            occurredAt: when,
          },
        ])
        await emitEvent(q, ctx.orgId, 'inventory.adjusted', movement)
        return movement
      })
    },

    /** Moves stock between two locations in one transaction: every line or none. */
    async transfer(ctx: RequestContext, input: TransferBody): Promise<Transfer> {
      if (input.from_location_id === input.to_location_id)
        throw invalid('to_location_id', 'must differ from from_location_id', 'same_location')
      return ctx.db.tx(async (q) => {
        const found = new Set(
          (await locations.byIds(ctx, [input.from_location_id, input.to_location_id])).map((l) => l.id),
        )
        for (const field of ['from_location_id', 'to_location_id'] as const) {
          if (!found.has(input[field])) throw invalid(field, 'does not name a location of this org', 'not_found')
        }
        for (const [i, line] of input.lines.entries()) {
          await checkItem(
            ctx,
            { product_id: line.product_id, variant_id: line.variant_id, location_id: input.from_location_id },
            `lines.${i}.`,
          )
        }
        const row = await repo.insertTransfer(
          q,
          ctx.orgId,
          {
            id: newId('trf'),
            fromLocationId: input.from_location_id,
            toLocationId: input.to_location_id,
            note: input.note ?? null,
            lines: input.lines.map((l) => ({
              product_id: l.product_id,
              variant_id: l.variant_id ?? null,
              quantity: l.quantity,
            })),
          },
          ctx.actor,
        )
        const reference = { type: 'transfer', id: row.id }
        await stock.applyChanges(
          ctx,
          input.lines.flatMap((line, i) => [
            {
              productId: line.product_id,
              variantId: line.variant_id,
              locationId: input.from_location_id,
              quantity: -line.quantity,
              reason: 'transfer_out' as const,
              reference,
              field: `lines.${i}`,
              note: input.note,
            },
            {
              productId: line.product_id,
              variantId: line.variant_id,
              locationId: input.to_location_id,
              quantity: line.quantity,
              reason: 'transfer_in' as const,
              reference,
              field: `lines.${i}`,
              note: input.note,
            },
          ]),
        )
        const transfer = toTransfer(row)
        await emitEvent(q, ctx.orgId, 'inventory.transfer_completed', transfer)
        return transfer
      })
    },

    async getTransfer(ctx: RequestContext, id: string): Promise<Transfer> {
      const row = await ctx.db.read((q) => repo.transferById(q, ctx.orgId, id))
      if (!row) throw notFound('transfer')
      return toTransfer(row)
    },

    /** For reports: units on hand per product and variant (variant '' for the product itself). */
    async onHand(ctx: RequestContext, locationId: string | null) {
      const rows = await ctx.db.read((q) => repo.onHandByItem(q, ctx.orgId, locationId))
      return rows.map((r) => ({ productId: r.product_id, variantId: r.variant_id || null, onHand: Number(r.on_hand) }))
    },

    async listLevels(ctx: RequestContext, query: LevelListQuery): Promise<Page<Level>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listLevels(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          locationId: query.location_id,
          productId: query.product_id,
          variantId: query.variant_id,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toLevel)
    },

    /** Levels at or below their reorder point (low_stock) or at or below zero (out_of_stock). */
    async listAlerts(ctx: RequestContext, query: AlertListQuery): Promise<Page<Level>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listLevels(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          locationId: query.location_id,
          alertsOnly: true,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toLevel)
    },

    async listMovements(ctx: RequestContext, query: MovementListQuery): Promise<Page<Movement>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listMovements(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          productId: query.product_id,
          variantId: query.variant_id,
          locationId: query.location_id,
          reason: query.reason,
          referenceType: query.reference_type,
          referenceId: query.reference_id,
          from: query.from === undefined ? undefined : new Date(query.from),
          to: query.to === undefined ? undefined : new Date(query.to),
          order: query.order,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toMovement)
    },

    /** Sets (or with null clears) the reorder point of an item at a location, creating its level at 0 if new. */
    async setReorderPoint(ctx: RequestContext, input: ReorderPointBody): Promise<Level> {
      return ctx.db.tx(async (q) => {
        await checkItem(ctx, input)
        const row = await repo.setReorderPoint(
          q,
          ctx.orgId,
          newId('lvl'),
          { productId: input.product_id, variantId: input.variant_id ?? '', locationId: input.location_id },
          input.reorder_point,
        )
        const level = toLevel(row)
        await emitEvent(q, ctx.orgId, 'inventory.reorder_point_updated', level)
        return level
      })
    },
  }
}

export type InventoryService = ReturnType<typeof createInventoryService>
