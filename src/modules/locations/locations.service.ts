import { KeptUnderCatalogVersion } from '../../platform/cache/index.ts'
import { newId } from '../../platform/crypto/ids.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { isTimeZone } from '../../platform/time/time-zone.ts'
import * as repo from './locations.repo.ts'
import type { CreateLocationBody, Location, LocationFields, LocationListQuery } from './locations.schemas.ts'
import type { LocationRow } from './locations.tables.ts'

function toLocation(row: LocationRow): Location {
  const { org_id: _org, ...rest } = row
  return rest
}

/** An IANA time zone name the runtime knows (Intl refuses anything else). */
function clean(input: LocationFields): LocationFields {
  const out: LocationFields = { ...input }
  if (out.name !== undefined) {
    out.name = out.name.trim()
    if (!out.name) throw invalid('name', 'must not be blank', 'required')
  }
  if (out.timezone !== undefined && !isTimeZone(out.timezone)) {
    throw invalid('timezone', 'is not an IANA time zone name (e.g. Pacific/Auckland)', 'invalid_timezone')
  }
  if (typeof out.country === 'string') out.country = out.country.toUpperCase()
  return out
}

/** How many (org, location) pairs a process remembers as existing before it starts afresh. */
const KNOWN_LIMIT = 10_000

export function createLocationsService() {
  // Locations are never deleted and never change org, so once seen, an (org, id) pair exists for good: every
  // order asks, and remembering the answer saves its transaction a round trip. Only positive answers are kept.
  const known = new Set<string>()
  // Time zones price campaigns' days and hours; a location write moves the catalog version on (locations.routes.ts).
  const zones = new KeptUnderCatalogVersion<{ timezone: string | null }>(KNOWN_LIMIT)
  const remember = (orgId: string, id: string) => {
    if (known.size >= KNOWN_LIMIT) known.clear()
    known.add(`${orgId}/${id}`)
  }

  return {
    async list(ctx: RequestContext, query: LocationListQuery): Promise<Page<Location>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listLocations(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          isActive: query.is_active,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toLocation)
    },

    async get(ctx: RequestContext, id: string): Promise<Location> {
      const row = await ctx.db.read((q) => repo.locationById(q, ctx.orgId, id))
      if (!row) throw notFound('location')
      return toLocation(row)
    },

    async create(ctx: RequestContext, input: CreateLocationBody): Promise<Location> {
      const w = clean(input)
      return ctx.db.tx(async (q) => {
        const row = await repo.insertLocation(q, ctx.orgId, newId('loc'), {
          name: w.name!,
          address_line1: w.address_line1 ?? '',
          address_line2: w.address_line2 ?? '',
          city: w.city ?? '',
          region: w.region ?? '',
          postal_code: w.postal_code ?? '',
          country: w.country ?? null,
          timezone: w.timezone ?? 'UTC',
          is_active: w.is_active ?? true,
        })
        const location = toLocation(row)
        await emitEvent(q, ctx.orgId, 'location.created', location)
        return location
      })
    },

    async update(
      ctx: RequestContext,
      id: string,
      input: LocationFields,
      expectedVersion: number | undefined,
    ): Promise<Location> {
      const w = clean(input)
      return ctx.db.tx(async (q) => {
        const row = await repo.updateLocation(q, ctx.orgId, id, w, expectedVersion)
        if (!row) {
          const current = await repo.locationById(q, ctx.orgId, id)
          if (!current) throw notFound('location')
          throw staleVersion(current.version)
        }
        const location = toLocation(row)
        await emitEvent(q, ctx.orgId, 'location.updated', location)
        return location
      })
    },

    /** Batch look-up for other domains (names in messages, validation); ids of other orgs are simply absent. */
    async byIds(ctx: RequestContext, ids: readonly string[]): Promise<Location[]> {
      if (ids.length === 0) return []
      const rows = await ctx.db.read((q) => repo.locationsByIds(q, ctx.orgId, [...new Set(ids)]))
      return rows.map(toLocation)
    },

    /** The location's IANA time zone, or null when it is not a location of the caller's org. */
    async timezoneOf(ctx: RequestContext, locationId: string): Promise<string | null> {
      const key = zones.keyOf(ctx, locationId)
      const hit = zones.get(key)
      if (hit) return hit.timezone
      const row = await ctx.db.read((q) => repo.locationById(q, ctx.orgId, locationId))
      zones.set(key, { timezone: row?.timezone ?? null })
      return row?.timezone ?? null
    },

    /**
     * A 422 naming `field` unless `locationId` is a location of the caller's org. Inactive locations pass:
     * refunds and restocks at a closed store must still work; callers that sell refuse them themselves.
     */
    async assertExists(ctx: RequestContext, locationId: string, field: string): Promise<void> {
      if (known.has(`${ctx.orgId}/${locationId}`)) return
      const row = await ctx.db.read((q) => repo.locationById(q, ctx.orgId, locationId))
      if (!row) throw invalid(field, 'does not name a location of this org', 'not_found')
      remember(ctx.orgId, locationId)
    },
  }
}

export type LocationsService = ReturnType<typeof createLocationsService>
