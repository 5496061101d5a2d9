import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { VerifiedAccess } from '../crypto/access-tokens.ts'
import { orgDb } from '../db/org-db.ts'
import { forbidden, unauthorized } from '../errors/app-error.ts'
import { forgetRequestSteps, runRequestStep } from '../flows/request-runs.ts'
import type { Admission } from '../rate-limit/admission.ts'
import { tooManyRequests } from '../rate-limit/enforce.ts'
import type { OrgLimitOf } from '../rate-limit/gcra.ts'
import type { Runtime } from '../runtime.ts'
import type { RequestContext } from './context.ts'
import { markWorkCommitted } from './idempotency-store.ts'

/** The registration options: the process runtime and where each org's rate limit comes from. */
interface AuthenticateOptions {
  runtime: Runtime
  /** Null only where bench/ measures what the org rate limit costs (bench/server.ts): no bucket is taken. */
  orgLimitOf: OrgLimitOf | null
}

/** The scope of routes any valid access token may call (its own session: logout, me). */
export const ANY_TOKEN = 'any-token'

const INVALID_TOKEN = { 'www-authenticate': 'Bearer error="invalid_token"' }

/** Reads the bearer token of the request; null when there is none. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)
  return match ? match[1] : null
}

/** The request context of verified claims that name an org. */
export function contextOf(
  runtime: Pick<Runtime, 'database'>,
  request: FastifyRequest,
  claims: VerifiedAccess,
): RequestContext {
  return {
    orgId: claims.orgId,
    actor: {
      kind: claims.actorKind,
      userId: claims.userId,
      clientId: claims.clientId,
      registerId: claims.registerId ?? null,
    },
    scopes: claims.scopeSet,
    sessionId: claims.sid,
    requestId: String(request.id),
    log: request.log,
    db: orgDb(runtime.database, claims.orgId, () => {
      const claimed = request.idempotency
      return claimed && ((q) => markWorkCommitted(q, claimed))
    }),
    once: (step, fn) => runRequestStep(runtime.database, request.idempotency, step, fn),
    forget: (steps) => forgetRequestSteps(runtime.database, request.idempotency, steps),
    catalogVersion: request.catalogVersion,
    credentialExpiresAt: claims.exp,
  }
}

/**
 * Revocation, the org's rate limit (docs/decisions.md "Rate limits") and the catalog version in one step: one Redis
 * round trip when instances share a Redis. Sets X-RateLimit-Limit and X-RateLimit-Remaining, also on a 429.
 * Returns null for a revoked session (no token is taken for it).
 */
export async function admit(
  runtime: Pick<Runtime, 'admissions'>,
  orgLimitOf: OrgLimitOf | null,
  reply: FastifyReply,
  claims: VerifiedAccess,
): Promise<Admission | null> {
  const admission = await runtime.admissions.admit({
    sessionId: claims.sid,
    orgId: claims.orgId,
    limit: orgLimitOf ? await orgLimitOf(claims.orgId) : null,
  })
  if (admission.revoked) return null
  const { decision } = admission
  if (!decision) return admission
  reply.header('x-ratelimit-limit', String(decision.limit)).header('x-ratelimit-remaining', String(decision.remaining))
  if (!decision.allowed) throw tooManyRequests(decision, 'for this org')
  return admission
}

/**
 * One guard for every route: each declares `config.scope` (or `false` for a public route) and a route without
 * a declaration refuses to register. The org comes only from the verified credential. The registration
 * options are the process runtime.
 */
export const authenticate = fp(
  async (app: FastifyInstance, { runtime, orgLimitOf }: AuthenticateOptions) => {
    app.decorateRequest('ctx', null as unknown as RequestContext)
    app.decorateRequest('catalogVersion', null)

    app.addHook('onRoute', (route) => {
      const scope = route.config?.scope
      if (scope === undefined && !route.url.startsWith('/docs') && route.url !== '*') {
        throw new Error(`route ${route.method} ${route.url} declares no scope (config.scope or scope: false)`)
      }
    })

    app.addHook('onRequest', async (request, reply) => {
      const scope = request.routeOptions.config?.scope
      if (!scope) return
      const token = bearerToken(request)
      if (!token) throw unauthorized()
      const claims = await runtime.accessTokens.verify(token)
      if (!claims) throw unauthorized('the access token is invalid or expired', INVALID_TOKEN)
      const scoped = scope === ANY_TOKEN || claims.scopeSet.has(scope)
      if (!claims.orgId || !scoped) {
        // Refusals that take no rate-limit token; a revoked session is still told so first.
        if (await runtime.revocations.isRevoked(claims.sid)) {
          throw unauthorized('the access token has been revoked', INVALID_TOKEN)
        }
        if (!claims.orgId) throw unauthorized('Unauthorized: missing orgId in token', INVALID_TOKEN)
        throw forbidden(`this token lacks the ${scope} scope`, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
        })
      }
      const admission = await admit(runtime, orgLimitOf, reply, claims)
      if (!admission) throw unauthorized('the access token has been revoked', INVALID_TOKEN)
      request.catalogVersion = admission.catalogVersion
      request.ctx = contextOf(runtime, request, claims)
    })
  },
  { name: 'opentill-authenticate' },
)
