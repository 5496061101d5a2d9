import { newId } from '../../platform/crypto/ids.ts'
import { withOrgScope } from '../../platform/db/org-db.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import type { InvitationsService } from '../auth/index.ts'
import type { OAuthService } from '../oauth/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import * as repo from './partners.repo.ts'
import type { CreateTenantBody, Invitation, Tenant, TenantListQuery } from './partners.schemas.ts'
import type { TenantRow } from './partners.tables.ts'

/** The scope that marks a partner credential; the tenant connection never includes it. */
const PARTNER_SCOPE = 'partners:write'

function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    org_id: row.tenant_org_id,
    name: row.name,
    plan: row.plan,
    currency: row.currency,
    owner_email: row.owner_email,
    client_id: row.client_id,
    grant_id: row.grant_id,
    scopes: row.scopes,
    created_at: row.created_at,
  }
}

export function createPartnersService(orgs: OrgsService, oauth: OAuthService, invitations: InvitationsService) {
  return {
    /**
     * Provisions a reseller tenant: the org with its plan and currency, a one-time invitation for its owner, and
     * the partner app's connection to it; all in one transaction, which under an
     * Idempotency-Key is the request's own, so a retry returns the same tenant and invitation.
     */
    async createTenant(ctx: RequestContext, input: CreateTenantBody): Promise<Tenant & { invitation: Invitation }> {
      const scopes = input.scopes ?? [...ctx.scopes].filter((s) => s !== PARTNER_SCOPE)
      if (scopes.includes(PARTNER_SCOPE)) throw invalid('scopes', `must not include ${PARTNER_SCOPE}`, 'invalid_scope')
      if (scopes.length === 0) throw invalid('scopes', 'needs at least one scope', 'required')
      const clientId = ctx.actor.clientId
      const plan = input.plan ?? 'starter'
      const allowed = (await oauth.apps.findClient(clientId))?.partner_plans ?? []
      if (!allowed.includes(plan))
        throw invalid(
          'plan',
          `is not one this partner may provision (allowed: ${allowed.join(', ') || 'none'})`,
          'plan_not_allowed',
        )
      return ctx.db.tx(async (q) => {
        const org = await orgs.createOrgWithin(q, { name: input.name, plan: input.plan, currency: input.currency })
        // The invitation and the connection are the tenant's rows; the tenant record is the partner's. Whether the
        // owner's e-mail is registered is not looked at here: the account is made when the invitation is accepted.
        const owner = { email: input.owner_email.trim(), name: input.owner_name ?? '', role: 'owner' as const }
        const { invitation, grantId } = await withOrgScope(q, org.id, async () => ({
          invitation: await invitations.invite(q, org.id, owner).then(({ invitation, url }) => ({
            url,
            expires_at: invitation.expires_at,
          })),
          grantId: (await oauth.connectApp(q, { orgId: org.id, clientId, scopes })).grantId,
        }))
        const row = await repo.insertTenant(q, {
          id: newId('ptn'),
          org_id: ctx.orgId,
          client_id: clientId,
          tenant_org_id: org.id,
          grant_id: grantId,
          name: org.name,
          plan: org.plan,
          currency: org.currency,
          owner_email: owner.email,
          scopes: [...new Set(scopes)],
        })
        const tenant = toTenant(row)
        await emitEvent(q, ctx.orgId, 'partner.tenant_created', tenant)
        return { ...tenant, invitation }
      })
    },

    /** The tenants the calling partner app provisioned, oldest first. */
    async listTenants(ctx: RequestContext, query: TenantListQuery): Promise<Page<Tenant>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listTenants(q, ctx.orgId, ctx.actor.clientId, afterId ?? undefined, query.limit + 1),
      )
      return toPage(rows, query.limit, (r) => [r.id], toTenant)
    },

    async getTenant(ctx: RequestContext, id: string): Promise<Tenant> {
      const row = await ctx.db.read((q) => repo.tenantById(q, ctx.orgId, ctx.actor.clientId, id))
      if (!row) throw notFound('tenant')
      return toTenant(row)
    },
  }
}

export type PartnersService = ReturnType<typeof createPartnersService>
