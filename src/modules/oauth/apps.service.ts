import { newId } from '../../platform/crypto/ids.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { changedFields, recordAudit } from '../audit/index.ts'
import { MERCHANT_SCOPES } from '../auth/index.ts'
import { PLANS, type Plan } from '../orgs/index.ts'
import * as repo from './apps.repo.ts'
import type { AppRow } from './oauth.tables.ts'
import { redirectUriProblem } from './redirect-uri.ts'
import { unknownScopes } from './scope.ts'

/** An app as its owner sees it; the secret is never part of it. */
export interface OAuthApp {
  client_id: string
  name: string
  redirect_uris: string[]
  allowed_scopes: string[]
  client_type: 'confidential' | 'public'
  partner: boolean
  /** The plans a partner app may provision tenants on (empty for other apps). */
  partner_plans: string[]
  version: number
  created_at: Date
  updated_at: Date
}

interface CreateAppInput {
  name: string
  redirectUris: string[]
  allowedScopes?: string[]
  public?: boolean
  /** Partner status is granted by the operator (`opentill create-app --partner`), never by a merchant. */
  partner?: boolean
  /** The plans the partner may provision tenants on (default: the self-serve plans, starter to pro). */
  partnerPlans?: string[]
}

/** What a partner app may provision unless the operator says otherwise: every plan but enterprise. */
const DEFAULT_PARTNER_PLANS: Plan[] = ['starter', 'growth', 'pro']

function toApp(row: AppRow): OAuthApp {
  return {
    client_id: row.id,
    name: row.name,
    redirect_uris: row.redirect_uris,
    allowed_scopes: row.allowed_scopes,
    client_type: row.confidential ? 'confidential' : 'public',
    partner: row.partner,
    partner_plans: row.partner_plans,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

const MAX_REDIRECT_URIS = 10

function checkName(name: string): string {
  const trimmed = name.trim()
  if (!trimmed) throw invalid('name', 'is required', 'required')
  if (trimmed.length > 100) throw invalid('name', 'must be at most 100 characters', 'out_of_range')
  return trimmed
}

function checkRedirectUris(uris: readonly string[]): string[] {
  const list = [...new Set(uris.map((u) => u.trim()).filter(Boolean))]
  if (list.length === 0) throw invalid('redirect_uris', 'needs at least one URI', 'required')
  if (list.length > MAX_REDIRECT_URIS)
    throw invalid('redirect_uris', `may hold at most ${MAX_REDIRECT_URIS} URIs`, 'out_of_range')
  list.forEach((uri, i) => {
    const problem = redirectUriProblem(uri)
    if (problem) throw invalid(`redirect_uris.${i}`, problem, 'invalid_redirect_uri')
  })
  return list
}

function checkScopes(scopes: readonly string[] | undefined): string[] {
  if (scopes === undefined) return [...MERCHANT_SCOPES]
  const unknown = unknownScopes(scopes)
  if (unknown.length) throw invalid('allowed_scopes', `names unknown scopes: ${unknown.join(', ')}`, 'invalid_scope')
  return MERCHANT_SCOPES.filter((s) => scopes.includes(s))
}

/** OAuth app registration (issue 3 §1): client ids are public, secrets are shown once and stored hashed. */
export function createAppsService(runtime: Runtime) {
  const { database } = runtime

  return {
    async create(ctx: RequestContext, input: CreateAppInput): Promise<{ app: OAuthApp; clientSecret: string | null }> {
      const name = checkName(input.name)
      const redirectUris = checkRedirectUris(input.redirectUris)
      const allowedScopes = checkScopes(input.allowedScopes)
      const confidential = !input.public
      if (input.partner && !confidential)
        throw invalid('partner', 'a partner app must be confidential (it uses client credentials)', 'invalid_value')
      const partnerPlans = input.partner ? (input.partnerPlans ?? DEFAULT_PARTNER_PLANS) : []
      const unknownPlan = partnerPlans.find((p) => !PLANS.some((plan) => plan === p))
      if (unknownPlan) throw invalid('partner_plans', `names an unknown plan: ${unknownPlan}`, 'invalid_value')
      const clientSecret = confidential ? randomToken('ots') : null
      const row = await ctx.db.tx(async (q) => {
        const inserted = await repo.insertApp(q, {
          id: newId('app'),
          orgId: ctx.orgId,
          name,
          redirectUris,
          allowedScopes,
          confidential,
          partner: Boolean(input.partner),
          partnerPlans,
          secretHash: clientSecret ? sha256Hex(clientSecret) : null,
          createdBy: ctx.actor.userId,
        })
        await recordAudit(q, ctx, {
          action: 'app.registered',
          record: { type: 'app', id: inserted.id },
          changes: { name, allowed_scopes: allowedScopes, client_type: confidential ? 'confidential' : 'public' },
        })
        return inserted
      })
      return { app: toApp(row), clientSecret }
    },

    async list(ctx: RequestContext, query: { limit: number; cursor?: string }): Promise<Page<OAuthApp>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) => repo.listApps(q, ctx.orgId, afterId ?? undefined, query.limit + 1))
      return toPage(rows, query.limit, (r) => [r.id], toApp)
    },

    async get(ctx: RequestContext, clientId: string): Promise<OAuthApp> {
      const row = await ctx.db.read((q) => repo.appById(q, ctx.orgId, clientId))
      if (!row) throw notFound('app')
      return toApp(row)
    },

    async update(ctx: RequestContext, clientId: string, input: repo.AppChanges): Promise<OAuthApp> {
      const fields = {
        name: input.name === undefined ? undefined : checkName(input.name),
        redirectUris: input.redirectUris === undefined ? undefined : checkRedirectUris(input.redirectUris),
        allowedScopes: input.allowedScopes === undefined ? undefined : checkScopes(input.allowedScopes),
      }
      const row = await ctx.db.tx(async (q) => {
        const before = await repo.appById(q, ctx.orgId, clientId)
        const after = before && (await repo.updateApp(q, ctx.orgId, clientId, fields))
        if (!before || !after) return undefined
        const changes = changedFields(toApp(before), toApp(after), ['name', 'redirect_uris', 'allowed_scopes'])
        if (Object.keys(changes).length > 0)
          await recordAudit(q, ctx, { action: 'app.updated', record: { type: 'app', id: clientId }, changes })
        return after
      })
      if (!row) throw notFound('app')
      return toApp(row)
    },

    /** Replaces the secret at once: the old one stops authenticating immediately. Public apps have none. */
    async rotateSecret(ctx: RequestContext, clientId: string): Promise<{ app: OAuthApp; clientSecret: string }> {
      const clientSecret = randomToken('ots')
      const row = await ctx.db.tx(async (q) => {
        const updated = await repo.setSecretHash(q, ctx.orgId, clientId, sha256Hex(clientSecret))
        if (updated) {
          await recordAudit(q, ctx, { action: 'app.secret_rotated', record: { type: 'app', id: clientId } })
          return updated
        }
        if (await repo.appById(q, ctx.orgId, clientId))
          throw invalid('client_id', 'names a public app, which has no secret', 'public_client')
        throw notFound('app')
      })
      return { app: toApp(row), clientSecret }
    },

    /** Any org's app by client id, for the protocol endpoints and the consent screen (which have no org yet). */
    async findClient(clientId: string): Promise<AppRow | null> {
      if (!/^app_[0-9a-z]{1,64}$/.test(clientId)) return null
      const orgId = await database.unscoped((q) => repo.orgOfApp(q, clientId))
      if (!orgId) return null
      return (await database.read(orgId, (q) => repo.appById(q, orgId, clientId))) ?? null
    },

    secretMatches(app: AppRow, secret: string): boolean {
      return app.secret_hash !== null && constantTimeEqual(sha256Hex(secret), app.secret_hash)
    },
  }
}

export type AppsService = ReturnType<typeof createAppsService>
