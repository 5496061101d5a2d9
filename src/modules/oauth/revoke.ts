import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sha256Hex } from '../../platform/crypto/tokens.ts'
import { EmptyBody } from '../../platform/http/schemas.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { authenticateClient } from './client-auth.ts'
import * as repo from './grants.repo.ts'
import type { GrantsService } from './grants.service.ts'
import { oauthErrors, TokenActionBody, withoutEmpty } from './oauth.schemas.ts'
import type { AppRow } from './oauth.tables.ts'
import type { OAuthDeps } from './token.ts'

/**
 * Revokes the grant behind a token of the calling client: a refresh token takes its whole family and every
 * access token derived from it (SPEC (docs/decisions.md) "Rules" 2); an access token takes its grant with it, which RFC 7009 §2.1
 * allows. The refresh token is tried first whatever the hint, as §2.1 lets the server search all types.
 */
async function revokeToken(runtime: Runtime, grants: GrantsService, client: AppRow, token: string): Promise<void> {
  const { database } = runtime
  const hash = sha256Hex(token)
  const refreshOrg = await database.unscoped((q) => repo.orgOfRefreshToken(q, hash))
  let target: { orgId: string; grantId: string } | null = null
  if (refreshOrg) {
    const row = await database.read(refreshOrg, (q) => repo.refreshTokenByHash(q, refreshOrg, hash))
    if (row && row.client_id === client.id) target = { orgId: refreshOrg, grantId: row.grant_id }
  } else {
    const claims = await runtime.accessTokens.verify(token)
    if (claims && claims.actorKind === 'app' && claims.clientId === client.id && claims.orgId) {
      target = { orgId: claims.orgId, grantId: claims.sid }
    }
  }
  if (!target) return
  const { orgId, grantId } = target
  const revoked = await database.transaction(orgId, (q) => repo.revokeGrant(q, orgId, grantId, 'revoked by the client'))
  await grants.revokeAccess(revoked)
}

/** `POST /oauth/revoke` (RFC 7009): 200 also for unknown, expired or already revoked tokens. */
export const revokeEndpoint: FastifyPluginAsyncTypebox<OAuthDeps> = async (app, { runtime, apps, grants }) => {
  app.post(
    '/oauth/revoke',
    {
      config: { scope: false },
      schema: {
        operationId: 'revokeToken',
        tags: ['oauth'],
        summary: 'Revoke an access token or a refresh token (RFC 7009)',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenActionBody,
        response: {
          200: EmptyBody('revoked, or already unusable (RFC 7009 §2.2)'),
          ...oauthErrors(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const body = withoutEmpty(request.body)
      const client = await authenticateClient(request, body, apps)
      await revokeToken(runtime, grants, client, body.token ?? '')
      // RFC 7009 §2.2: the content of the answer is ignored by clients; it is empty, not a JSON `null`.
      return reply.code(200).send(undefined as never)
    },
  )
}
