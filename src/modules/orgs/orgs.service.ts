import type { Plan } from '../../config.ts'
import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { withOrgScope } from '../../platform/db/org-db.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { isCurrency } from '../../platform/money/money.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { AuthService } from '../auth/index.ts'
import * as repo from './orgs.repo.ts'

export interface CreateOrgInput {
  name: string
  email: string
  password: string | null
  ownerName?: string
  plan?: Plan
  currency?: string
}

export function createOrgsService(runtime: Runtime, auth: AuthService) {
  // An org's currency never changes once it has prices, so it is cached for the life of the process.
  const currencies = new Map<string, string>()

  return {
    /**
     * Creates an org and its owner in one transaction. With `within`, inside the caller's open transaction
     * (partner provisioning), scoped to the new org for the inserts and back to the caller's org afterwards.
     */
    async createOrg(input: CreateOrgInput, within?: Queryable) {
      const currency = (input.currency ?? 'USD').toUpperCase()
      if (!isCurrency(currency)) throw invalid('currency', 'is not an ISO 4217 currency code', 'invalid_currency')
      if (!input.name.trim()) throw invalid('name', 'is required', 'required')
      const orgId = newId('org')
      const inTransaction = <T>(fn: (q: Queryable) => Promise<T>): Promise<T> =>
        within ? withOrgScope(within, orgId, () => fn(within)) : runtime.database.transaction(orgId, fn)
      return inTransaction(async (q) => {
        const org = await repo.insertOrg(q, {
          id: orgId,
          name: input.name.trim(),
          plan: input.plan ?? 'starter',
          currency,
        })
        const owner = await auth.createUser(q, {
          orgId,
          email: input.email,
          name: input.ownerName,
          role: 'owner',
          password: input.password,
        })
        return { org, owner }
      })
    },

    async getOrg(ctx: RequestContext): Promise<repo.OrgRow> {
      const org = await ctx.db.read((q) => repo.orgById(q, ctx.orgId))
      if (!org) throw notFound('org')
      return org
    },

    /** The org's ISO 4217 currency, which every money amount of the org is in. */
    async currencyOf(ctx: RequestContext): Promise<string> {
      const cached = currencies.get(ctx.orgId)
      if (cached) return cached
      const org = await ctx.db.read((q) => repo.orgById(q, ctx.orgId))
      if (!org) throw notFound('org')
      currencies.set(ctx.orgId, org.currency)
      return org.currency
    },
  }
}

export type OrgsService = ReturnType<typeof createOrgsService>
