import type { FastifyReply, FastifyRequest } from 'fastify'
import type { GraphQLError } from 'graphql'
import { admit, bearerToken, contextOf } from '../../../platform/http/authenticate.ts'
import type { RequestContext } from '../../../platform/http/context.ts'
import type { OrgLimitOf } from '../../../platform/rate-limit/index.ts'
import type { Runtime } from '../../../platform/runtime.ts'
import { forbiddenError, unauthenticated } from './errors.ts'

/** The credential of a GraphQL request: a request context, or the error every guarded field answers with. */
export type GraphqlAuth = { ctx: RequestContext; error?: undefined } | { ctx?: undefined; error: GraphQLError }

export interface GraphqlContext {
  auth: GraphqlAuth
}

interface GraphqlAdmission {
  auth: GraphqlAuth
  /** The org's catalog version when the answer may be cached, read before any database read. */
  catalogVersion: string | null
}

/**
 * The same bearer verification as the REST guard (signature, expiry, revocation, org), but its verdict is kept
 * rather than thrown: the guard is per field, so that introspection needs no token and a refused field answers
 * in the GraphQL envelope. A token that names an org takes one of the org's rate-limit tokens, on the same
 * bucket as its REST calls; the 429 that refuses it is an HTTP answer, before any operation runs.
 */
export async function admitGraphql(
  runtime: Runtime,
  orgLimitOf: OrgLimitOf,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<GraphqlAdmission> {
  const refused = (message: string): GraphqlAdmission => ({
    auth: { error: unauthenticated(message) },
    catalogVersion: null,
  })
  const token = bearerToken(request)
  if (!token) return refused('Unauthorized: missing or invalid bearer token')
  const claims = await runtime.accessTokens.verify(token)
  if (!claims) return refused('Unauthorized: the access token is invalid or expired')
  if (!claims.orgId) {
    if (await runtime.revocations.isRevoked(claims.sid))
      return refused('Unauthorized: the access token has been revoked')
    return refused('Unauthorized: missing orgId in token')
  }
  const admission = await admit(runtime, orgLimitOf, reply, claims)
  if (!admission) return refused('Unauthorized: the access token has been revoked')
  request.catalogVersion = admission.catalogVersion
  return { auth: { ctx: contextOf(runtime, request, claims) }, catalogVersion: admission.catalogVersion }
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
