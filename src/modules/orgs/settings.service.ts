import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { isTimeZone } from '../../platform/time/time-zone.ts'
import { changedFields, recordAudit } from '../audit/index.ts'
import * as repo from './orgs.repo.ts'
import type { OrgRow } from './orgs.tables.ts'
import type { Settings, UpdateSettingsBody } from './settings.schemas.ts'

const EDITABLE = [
  'name',
  'phone',
  'address',
  'timezone',
  'receipt_header',
  'receipt_footer',
  'prices_include_tax',
  'tips',
  'manager_approval',
] as const

function toSettings(org: OrgRow): Settings {
  return {
    name: org.name,
    phone: org.phone,
    address: org.address,
    timezone: org.timezone,
    receipt_header: org.receipt_header,
    receipt_footer: org.receipt_footer,
    prices_include_tax: org.prices_include_tax,
    tips: org.tips,
    manager_approval: org.manager_approval,
    currency: org.currency,
    version: org.version,
    updated_at: org.updated_at,
  }
}

/** The store's settings (GET/PATCH /settings): what receipts, the till and pricing read of the org. */
export function createSettingsService() {
  return {
    async get(ctx: RequestContext): Promise<Settings> {
      const org = await ctx.db.read((q) => repo.orgById(q, ctx.orgId))
      if (!org) throw notFound('org')
      return toSettings(org)
    },

    async update(ctx: RequestContext, body: Omit<UpdateSettingsBody, 'version'>, expected?: number): Promise<Settings> {
      if (body.timezone !== undefined && !isTimeZone(body.timezone))
        throw invalid('timezone', 'is not an IANA time zone', 'invalid_timezone')
      if (body.name !== undefined && !body.name.trim()) throw invalid('name', 'is required', 'required')
      return ctx.db.tx(async (q) => {
        const before = await repo.lockOrg(q, ctx.orgId)
        if (!before) throw notFound('org')
        if (expected !== undefined && expected !== before.version) throw staleVersion(before.version)
        const current = toSettings(before)
        const next = {
          ...current,
          ...body,
          ...(body.name === undefined ? {} : { name: body.name.trim() }),
          tips: { ...current.tips, ...body.tips },
        }
        const changes = changedFields(current, next, EDITABLE)
        if (Object.keys(changes).length === 0) return current
        const after = await repo.updateSettings(q, ctx.orgId, next)
        await recordAudit(q, ctx, { action: 'settings.updated', record: { type: 'settings', id: ctx.orgId }, changes })
        return toSettings(after)
      })
    },
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>
