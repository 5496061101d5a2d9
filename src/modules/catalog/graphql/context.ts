import type { FastifyRequest } from 'fastify'
import type { GraphQLError } from 'graphql'
import type { AccessTokens } from '../../../platform/crypto/access-tokens.ts'
import type { Revocations } from '../../../platform/crypto/revocations.ts'
import type { Database } from '../../../platform/db/database.ts'
import { orgDb } from '../../../platform/db/org-db.ts'
import { bearerToken } from '../../../platform/http/authenticate.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import { forbiddenError, unauthenticated } from './errors.ts'

export interface AuthDeps {
  database: Database
  accessTokens: AccessTokens
  revocations: Revocations
}

/** The credential of a GraphQL request: a request context, or the error every guarded field answers with. */
export type GraphqlAuth = { ctx: RequestContext; error?: undefined } | { ctx?: undefined; error: GraphQLError }

export interface GraphqlContext {
  auth: GraphqlAuth
}

/**
 * The same bearer verification as the REST guard (signature, expiry, revocation, org), but its verdict is kept
 * rather than thrown: the guard is per field, so that introspection needs no token and a refused field answers
 * in the GraphQL envelope.
 */
export async function authenticateGraphql(request: FastifyRequest, deps: AuthDeps): Promise<GraphqlAuth> {
  const token = bearerToken(request)
  if (!token) return { error: unauthenticated('Unauthorized: missing or invalid bearer token') }
  const claims = await deps.accessTokens.verify(token)
  if (!claims) return { error: unauthenticated('Unauthorized: the access token is invalid or expired') }
  if (await deps.revocations.isRevoked(claims.sid))
    return { error: unauthenticated('Unauthorized: the access token has been revoked') }
  if (!claims.orgId) return { error: unauthenticated('Unauthorized: missing orgId in token') }
  return {
    ctx: {
      orgId: claims.orgId,
      actor: { kind: claims.actorKind, userId: claims.userId, clientId: claims.clientId },
      scopes: new Set(claims.scopes),
      sessionId: claims.sid,
      requestId: String(request.id),
      log: request.log,
      db: orgDb(deps.database, claims.orgId),
    },
  }
}

/**
 * What every operation checks first: a valid credential with `scope`, and, when the caller names an org, that
 * it is the token's org (SPEC: an org mismatch is refused, never answered with another org's data).
 */
export function guard(
  context: GraphqlContext,
  scope: 'catalog:read' | 'catalog:write',
  orgId?: string | null,
): RequestContext {
  const { ctx, error } = context.auth
  if (error) throw error
  if (!ctx.scopes.has(scope)) throw forbiddenError(`Forbidden: this token lacks the ${scope} scope`)
  if (orgId !== undefined && orgId !== null && orgId !== ctx.orgId) {
    throw forbiddenError("Forbidden: orgId does not match the token's org")
  }
  return ctx
}
