import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AccessTokens } from '../crypto/access-tokens.ts'
import type { Revocations } from '../crypto/revocations.ts'
import type { Database } from '../db/database.ts'
import { forbidden, unauthorized } from '../errors/app-error.ts'
import { orgDb } from '../db/org-db.ts'
import type { RequestContext } from './context.ts'

export interface AuthenticateOptions {
  database: Database
  accessTokens: AccessTokens
  revocations: Revocations
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

/**
 * One guard for every route: each declares `config.scope` (or `false` for a public route) and a route without
 * a declaration refuses to register. The org comes only from the verified credential.
 */
export const authenticate = fp(
  async (app: FastifyInstance, options: AuthenticateOptions) => {
    app.decorateRequest('ctx', null as unknown as RequestContext)

    app.addHook('onRoute', (route) => {
      const scope = route.config?.scope
      if (scope === undefined && !route.url.startsWith('/docs') && route.url !== '*') {
        throw new Error(`route ${route.method} ${route.url} declares no scope (config.scope or scope: false)`)
      }
    })

    app.addHook('onRequest', async (request) => {
      const scope = request.routeOptions.config?.scope
      if (!scope) return
      const token = bearerToken(request)
      if (!token) throw unauthorized()
      const claims = await options.accessTokens.verify(token)
      if (!claims) throw unauthorized('the access token is invalid or expired', INVALID_TOKEN)
      if (await options.revocations.isRevoked(claims.sid)) {
        throw unauthorized('the access token has been revoked', INVALID_TOKEN)
      }
      if (!claims.orgId) throw unauthorized('Unauthorized: missing orgId in token', INVALID_TOKEN)
      if (scope !== ANY_TOKEN && !claims.scopes.includes(scope)) {
        throw forbidden(`this token lacks the ${scope} scope`, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
        })
      }
      request.ctx = {
        orgId: claims.orgId,
        actor: { kind: claims.actorKind, userId: claims.userId, clientId: claims.clientId },
        scopes: new Set(claims.scopes),
        sessionId: claims.sid,
        requestId: String(request.id),
        log: request.log,
        db: orgDb(options.database, claims.orgId, () => request.ambientTx?.q),
      }
    })
  },
  { name: 'opentill-authenticate' },
)
