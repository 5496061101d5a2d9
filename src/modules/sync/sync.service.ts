import { badRequest } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { everyPage } from '../../platform/http/pagination.ts'
import type { DevicesService } from '../auth/index.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CatalogService } from '../catalog/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { SettingsService } from '../orgs/index.ts'
import type { PaymentsService } from '../payments/index.ts'
import type { RegistersService } from '../registers/index.ts'
import type { TaxService } from '../tax/index.ts'
import type { CatalogQuery } from './sync.schemas.ts'

interface SyncDeps {
  catalog: Pick<CatalogService, 'sync'>
  tax: Pick<TaxService, 'list'>
  campaigns: Pick<CampaignsService, 'list'>
  payments: Pick<PaymentsService, 'methods'>
  devices: Pick<DevicesService, 'staffOf'>
  settings: Pick<SettingsService, 'get'>
  locations: Pick<LocationsService, 'get'>
  registers: Pick<RegistersService, 'getRegister'>
}

const PAGE = 200

/** What a till needs to sell at one location without the network (docs/sync.md), from each module's index. */
export function createSyncService(deps: SyncDeps) {
  /** The location asked for, or the till's own: its register's. */
  async function locationOf(ctx: RequestContext, asked: string | undefined): Promise<string> {
    if (asked) return (await deps.locations.get(ctx, asked)).id
    if (ctx.actor.registerId) return (await deps.registers.getRegister(ctx, ctx.actor.registerId)).location_id
    throw badRequest('location_id is required for a credential of no till', [
      { field: 'location_id', message: 'is required: this credential belongs to no till', code: 'required' },
    ])
  }

  return {
    async catalog(ctx: RequestContext, query: CatalogQuery) {
      const locationId = await locationOf(ctx, query.location_id)
      const since = query.since ?? null
      if (since !== null && BigInt(since) >= 2n ** 64n)
        throw badRequest('since is not a version this API gave', [
          { field: 'since', message: 'is not a version this API gave', code: 'invalid_cursor' },
        ])
      const [changes, settings, taxRates, active, scheduled, methods, staff] = await Promise.all([
        deps.catalog.sync.changes(ctx, since, locationId),
        deps.settings.get(ctx),
        everyPage((cursor) => deps.tax.list(ctx, { limit: PAGE, cursor })),
        everyPage((cursor) => deps.campaigns.list(ctx, { limit: PAGE, cursor, status: 'active' })),
        everyPage((cursor) => deps.campaigns.list(ctx, { limit: PAGE, cursor, status: 'scheduled' })),
        deps.payments.methods(ctx),
        deps.devices.staffOf(ctx),
      ])
      const { version, ...catalog } = changes
      return {
        version,
        full: since === null,
        location_id: locationId,
        settings,
        ...catalog,
        tax_rates: taxRates,
        campaigns: [...active, ...scheduled],
        payment_methods: methods.methods,
        staff,
      }
    },
  }
}

export type SyncService = ReturnType<typeof createSyncService>
