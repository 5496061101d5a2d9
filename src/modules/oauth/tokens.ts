import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import type { Runtime } from '../../platform/runtime.ts'
import * as repo from './grants.repo.ts'
import type { TokenResponse } from './oauth.schemas.ts'

const REFRESH_TOKEN_PREFIX = 'otr'
export const CODE_PREFIX = 'otc'

/** Stores a new refresh token of `grantId` in the caller's transaction and returns it; only its hash is kept. */
export async function newRefreshToken(runtime: Runtime, q: Queryable, orgId: string, grantId: string): Promise<string> {
  const token = randomToken(REFRESH_TOKEN_PREFIX)
  await repo.insertRefreshToken(q, {
    hash: sha256Hex(token),
    orgId,
    grantId,
    ttlSeconds: runtime.config.refreshTokenTtlS,
  })
  return token
}

/** Signs the access token of a grant (sid = grant id, so revoking the grant revokes the token). */
export async function tokenResponse(
  runtime: Runtime,
  grant: { id: string; orgId: string; clientId: string; userId: string | null },
  scopes: string[],
  refreshToken: string | undefined,
): Promise<TokenResponse> {
  const accessToken = await runtime.accessTokens.sign({
    sub: grant.userId ?? grant.clientId,
    orgId: grant.orgId,
    scopes,
    sid: grant.id,
    clientId: grant.clientId,
    actorKind: 'app',
    userId: grant.userId,
  })
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: runtime.accessTokens.ttlSeconds,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope: scopes.join(' '),
    org_id: grant.orgId,
  }
}
