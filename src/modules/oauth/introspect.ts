import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ACCESS_TOKEN_AUDIENCE } from '../../platform/crypto/access-tokens.ts'
import { sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { authenticateClient } from './client-auth.ts'
import { OAuthError } from './errors.ts'
import * as repo from './grants.repo.ts'
import { type Introspection, IntrospectionSchema, oauthErrors, TokenActionBody, withoutEmpty } from './oauth.schemas.ts'
import type { AppRow } from './oauth.tables.ts'
import type { OAuthDeps } from './token.ts'

/** RFC 7662 §2.2: a client learns about its own tokens only; anything else is just inactive. */
async function introspect(runtime: Runtime, client: AppRow, token: string): Promise<Introspection> {
  const { database, accessTokens, revocations, config } = runtime
  const hash = sha256Hex(token)
  const refreshOrg = await database.unscoped((q) => repo.orgOfRefreshToken(q, hash))
  if (refreshOrg) {
    const row = await database.read(refreshOrg, (q) => repo.refreshTokenByHash(q, refreshOrg, hash))
    if (!row || row.client_id !== client.id || row.used || row.expired || row.revoked) return { active: false }
    return {
      active: true,
      token_type: 'refresh_token',
      scope: row.scopes.join(' '),
      client_id: client.id,
      sub: row.user_id ?? client.id,
      iss: config.baseUrl,
      org_id: refreshOrg,
    }
  }
  const claims = await accessTokens.verify(token)
  if (!claims || claims.clientId !== client.id || (await revocations.isRevoked(claims.sid))) return { active: false }
  return {
    active: true,
    token_type: 'Bearer',
    scope: claims.scopes.join(' '),
    client_id: client.id,
    exp: claims.exp,
    sub: claims.sub,
    aud: ACCESS_TOKEN_AUDIENCE,
    iss: config.baseUrl,
    org_id: claims.orgId,
  }
}

/** `POST /oauth/introspect` (RFC 7662), for confidential clients. */
export const introspectEndpoint: FastifyPluginAsyncTypebox<OAuthDeps> = async (app, { runtime, apps }) => {
  app.post(
    '/oauth/introspect',
    {
      config: { scope: false },
      schema: {
        operationId: 'introspectToken',
        tags: ['oauth'],
        summary: 'Token introspection for confidential clients (RFC 7662)',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenActionBody,
        response: { 200: IntrospectionSchema, ...oauthErrors(400, 401, 429) },
      },
    },
    async (request) => {
      const body = withoutEmpty(request.body)
      const client = await authenticateClient(request, body, apps)
      if (!client.confidential) throw new OAuthError('invalid_client', 'introspection is for confidential clients')
      return introspect(runtime, client, body.token ?? '')
    },
  )
}
