import { KeptUnderCatalogVersion } from '../../platform/cache/index.ts'
import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { withOrgScope } from '../../platform/db/org-db.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { isCurrency } from '../../platform/money/money.ts'
import type { Limit } from '../../platform/rate-limit/index.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { AuthService } from '../auth/index.ts'
import { AUTOMATION_RUNS_PER_MINUTE, limitOfPlan, PLAN_LIMITS, type Plan } from './orgs.plans.ts'
import * as repo from './orgs.repo.ts'
import type { OrgRow } from './orgs.tables.ts'

interface NewOrg {
  name: string
  plan?: Plan
  currency?: string
}

interface CreateOrgInput extends NewOrg {
  email: string
  password: string
  ownerName?: string
}

/** What pricing needs of an org, and what staff may not do alone when they price (settings' manager_approval). */
interface PricingSettings {
  currency: string
  prices_include_tax: boolean
  manager_approval: OrgRow['manager_approval']
  tips: OrgRow['tips']
}

/** Orgs whose pricing settings are kept per process. */
const PRICING_SETTINGS_ENTRIES = 10_000

/**
 * Plans change rarely; reading the org row on every request would cost a database round trip each. A second is
 * how soon every instance applies a change (`opentill set-org-limits`): one small read per org per second.
 */
const RATE_LIMIT_KEPT_MS = 1_000
const RATE_LIMIT_ENTRIES = 10_000

export function createOrgsService(runtime: Runtime, auth: AuthService) {
  const rateLimits = new Map<string, { limit: Limit; until: number }>()
  // An org's currency never changes once it has prices, so it is cached for the life of the process.
  const currencies = new Map<string, string>()
  // Kept like the catalog data they price, under the catalog version (docs/catalog-cache.md).
  const pricingSettings = new KeptUnderCatalogVersion<PricingSettings>(PRICING_SETTINGS_ENTRIES)

  async function getOrg(ctx: RequestContext): Promise<OrgRow> {
    const org = await ctx.db.read((q) => repo.orgById(q, ctx.orgId))
    if (!org) throw notFound('org')
    return org
  }

  /** The org's row, validated, in a transaction already scoped to `orgId`. */
  function insertOrg(q: Queryable, orgId: string, input: NewOrg): Promise<OrgRow> {
    const currency = (input.currency ?? 'USD').toUpperCase()
    if (!isCurrency(currency)) throw invalid('currency', 'is not an ISO 4217 currency code', 'invalid_currency')
    if (!input.name.trim()) throw invalid('name', 'is required', 'required')
    return repo.insertOrg(q, { id: orgId, name: input.name.trim(), plan: input.plan ?? 'starter', currency })
  }

  return {
    /**
     * Creates an org and its owner, who signs in with `password`, in one transaction. The password is hashed before
     * it (the hash is slow on purpose), so the transaction holds its connection only for the inserts.
     */
    async createOrg(input: CreateOrgInput) {
      const orgId = newId('org')
      const passwordHash = await auth.hashPassword(input.password)
      return runtime.database.transaction(orgId, async (q) => {
        const org = await insertOrg(q, orgId, input)
        const owner = await auth.createUser(q, {
          orgId,
          email: input.email,
          name: input.ownerName,
          role: 'owner',
          passwordHash,
        })
        return { org, owner }
      })
    },

    /**
     * Creates an org without users inside the caller's open transaction (partner provisioning: its owner is made
     * when the invitation is accepted), scoped to the new org for the insert and back to the caller's org after.
     */
    createOrgWithin(q: Queryable, input: NewOrg): Promise<OrgRow> {
      const orgId = newId('org')
      return withOrgScope(q, orgId, () => insertOrg(q, orgId, input))
    },

    getOrg,

    /**
     * The org's currency, whether its prices include tax and its manager-approval rules, kept in memory under the
     * catalog version like the catalog data they price: PATCH /settings moves the version on, and a change made in
     * SQL shows from the next catalog, tax or settings write on.
     */
    pricingSettings(ctx: RequestContext): Promise<PricingSettings> {
      return pricingSettings.through(ctx, async () => {
        const org = await getOrg(ctx)
        return {
          currency: org.currency,
          prices_include_tax: org.prices_include_tax,
          manager_approval: org.manager_approval,
          tips: org.tips,
        }
      })
    },

    /**
     * The org's request rate limit (docs/decisions.md "Rate limits"), for the REST and GraphQL guards; an org that
     * no longer exists gets Starter's.
     */
    async rateLimitOf(orgId: string): Promise<Limit> {
      const hit = rateLimits.get(orgId)
      if (hit && hit.until > Date.now()) return hit.limit
      const settings = await runtime.database.read(orgId, (q) => repo.rateLimitSettings(q, orgId))
      const limit = settings ? limitOfPlan(settings) : PLAN_LIMITS.starter
      if (rateLimits.size > RATE_LIMIT_ENTRIES) rateLimits.clear()
      rateLimits.set(orgId, { limit, until: Date.now() + RATE_LIMIT_KEPT_MS })
      return limit
    },

    /** `opentill set-org-limits`: the org's own limits, applied by every instance within a second. */
    async setCustomLimits(ctx: RequestContext, perMinute: number, burst: number) {
      const row = await ctx.db.tx((q) => repo.setCustomLimits(q, ctx.orgId, perMinute, burst))
      if (!row) throw notFound('org')
      return { orgId: row.id, perMinute: row.rate_limit_per_minute, burst: row.rate_limit_burst }
    },

    /** How many automation runs the org may start per minute (its plan's figure). */
    async automationRunsPerMinute(ctx: RequestContext): Promise<number> {
      return AUTOMATION_RUNS_PER_MINUTE[(await getOrg(ctx)).plan]
    },

    /** The org's ISO 4217 currency, which every money amount of the org is in. */
    async currencyOf(ctx: RequestContext): Promise<string> {
      const cached = currencies.get(ctx.orgId)
      if (cached) return cached
      const { currency } = await getOrg(ctx)
      currencies.set(ctx.orgId, currency)
      return currency
    },
  }
}

export type OrgsService = ReturnType<typeof createOrgsService>
