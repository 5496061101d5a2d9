import { newId } from '../../platform/crypto/ids.ts'
import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { actingUser, recordAudit } from '../audit/index.ts'
import type { AppsService } from './apps.service.ts'
import * as repo from './grants.repo.ts'
import type { GrantRow } from './oauth.tables.ts'
import { unknownScopes } from './scope.ts'
import { CODE_PREFIX } from './tokens.ts'

/** An app as the org that connected it sees it in the dashboard. */
interface ConnectedApp {
  client_id: string
  name: string
  partner: boolean
  scopes: string[]
  connected_at: Date
  last_used_at: Date
}

interface ConnectedOrg {
  orgId: string
  grantId: string
  scopes: string[]
  connectedAt: Date
}

/** What a grant still allows (see `grantStandings`). */
export interface GrantStanding {
  scopes: readonly string[]
  revokedReason: string | null
}

/** The event data of a connection, as the dashboard shows it. */
function connectionEvent(
  clientId: string,
  grant: { id: string; kind: string; scopes: string[]; user_id: string | null },
) {
  return { client_id: clientId, grant_id: grant.id, kind: grant.kind, scopes: grant.scopes, user_id: grant.user_id }
}

/** What orgs gave apps: consents, partner connections, their revocation at once on every instance. */
export function createGrantsService(runtime: Runtime, apps: AppsService) {
  const { database, revocations, config } = runtime

  /** Stops the access tokens of revoked grants on every instance (after the commit that revoked them). */
  async function revokeAccess(grantIds: readonly string[]): Promise<void> {
    const until = Date.now() + config.accessTokenTtlS * 1000
    for (const id of grantIds) await revocations.revoke(id, until)
  }

  return {
    revokeAccess,

    /**
     * Connects a partner app to `input.orgId` in the caller's transaction (`q` is scoped to that org): the
     * partner may then get tokens for the org through client credentials with `org_id`. Returns the grant.
     */
    async connectApp(
      q: Queryable,
      input: { orgId: string; clientId: string; scopes: string[] },
    ): Promise<{ grantId: string }> {
      const allowed = await repo.partnerAppScopes(q, input.clientId)
      if (!allowed) throw invalid('client_id', 'does not name a partner app', 'not_partner_app')
      const unknown = unknownScopes(input.scopes)
      if (unknown.length) throw invalid('scopes', `names unknown scopes: ${unknown.join(', ')}`, 'invalid_scope')
      const outside = input.scopes.filter((s) => !allowed.includes(s))
      if (outside.length)
        throw invalid('scopes', `exceeds what the app may have: ${outside.join(', ')}`, 'invalid_scope')
      const grant = await repo.insertGrant(q, {
        id: newId('grant'),
        orgId: input.orgId,
        clientId: input.clientId,
        kind: 'connection',
        userId: null,
        scopes: [...new Set(input.scopes)],
      })
      await emitEvent(q, input.orgId, 'app.connected', connectionEvent(input.clientId, grant))
      return { grantId: grant.id }
    },

    /** The tenant orgs a partner app of the caller's org is connected to; another org's app is a 404. */
    async listConnectedOrgs(ctx: RequestContext, clientId: string): Promise<ConnectedOrg[]> {
      const app = await apps.findClient(clientId)
      if (!app || app.org_id !== ctx.orgId) throw notFound('app')
      const rows = await ctx.db.read((q) => repo.connectionsOfClient(q, clientId))
      return rows.map((r) => ({ orgId: r.org_id, grantId: r.grant_id, scopes: r.scopes, connectedAt: r.created_at }))
    },

    /** The apps the org has live grants for, one entry per app: the union of scopes and the latest use. */
    async listConnections(ctx: RequestContext): Promise<ConnectedApp[]> {
      const rows = await ctx.db.read((q) => repo.liveGrants(q, ctx.orgId))
      const byClient = new Map<string, GrantRow[]>()
      for (const row of rows) byClient.set(row.client_id, [...(byClient.get(row.client_id) ?? []), row])
      const result: ConnectedApp[] = []
      for (const [clientId, grants] of byClient) {
        const app = await apps.findClient(clientId)
        if (!app) continue
        result.push({
          client_id: clientId,
          name: app.name,
          partner: app.partner,
          scopes: [...new Set(grants.flatMap((g) => g.scopes))].sort(),
          connected_at: new Date(Math.min(...grants.map((g) => g.created_at.getTime()))),
          last_used_at: new Date(Math.max(...grants.map((g) => g.last_used_at.getTime()))),
        })
      }
      return result.sort((a, b) => a.name.localeCompare(b.name))
    },

    /**
     * Disconnects an app from the org (SPEC (docs/decisions.md) "Rules" 3): every grant it holds is revoked, its access tokens
     * fail with 401 at once and its refresh tokens with `invalid_grant`.
     */
    async disconnect(ctx: RequestContext, clientId: string): Promise<void> {
      const revoked = await ctx.db.tx(async (q) => {
        const ids = await repo.revokeGrantsOfClient(q, ctx.orgId, clientId, 'disconnected')
        if (ids.length === 0) throw notFound('connected app')
        await emitEvent(q, ctx.orgId, 'app.disconnected', {
          client_id: clientId,
          grant_ids: ids,
          user_id: ctx.actor.userId,
        })
        await recordAudit(q, ctx, {
          action: 'app.disconnected',
          record: { type: 'app', id: clientId },
          changes: { grant_ids: ids },
        })
        return ids
      })
      await revokeAccess(revoked)
    },

    /**
     * What each grant of the org still allows: its scopes while live, and why it stopped once revoked (a user's
     * revocation, the app's disconnection). Grants not found are absent from the answer.
     */
    async grantStandings(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, GrantStanding>> {
      const rows = await ctx.db.read((q) => repo.grantsByIds(q, ctx.orgId, ids))
      return new Map(
        rows.map((g) => [
          g.id,
          {
            scopes: g.scopes,
            revokedReason: g.revoked_at ? (g.revoked_reason ?? 'revoked') : null,
          },
        ]),
      )
    },

    /** Issues an authorization code for an approved consent (RFC 6749 §4.1.2); only its hash is stored. */
    async issueCode(input: {
      orgId: string
      clientId: string
      userId: string
      scopes: string[]
      redirectUri: string
      codeChallenge: string | null
    }): Promise<string> {
      const code = randomToken(CODE_PREFIX)
      await database.transaction(input.orgId, async (q) => {
        await repo.insertCode(q, { ...input, hash: sha256Hex(code), ttlSeconds: config.authCodeTtlS })
        await recordAudit(q, actingUser(input.orgId, input.userId), {
          action: 'app.consented',
          record: { type: 'app', id: input.clientId },
          changes: { scopes: input.scopes },
        })
      })
      return code
    },
  }
}

export type GrantsService = ReturnType<typeof createGrantsService>
