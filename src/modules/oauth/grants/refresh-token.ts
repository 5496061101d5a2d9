import { sha256Hex } from '../../../platform/crypto/tokens.ts'
import type { Runtime } from '../../../platform/runtime.ts'
import { invalidGrant, invalidRequest, invalidScope } from '../errors.ts'
import * as repo from '../grants.repo.ts'
import type { GrantsService } from '../grants.service.ts'
import type { TokenBody, TokenResponse } from '../oauth.schemas.ts'
import type { AppRow, RefreshRow } from '../oauth.tables.ts'
import { parseScope } from '../scope.ts'
import { newRefreshToken, tokenResponse } from '../tokens.ts'

/** The parameters this grant reads (RFC 6749 §6); anything else is ignored. */
type RefreshTokenParams = Pick<TokenBody, 'refresh_token' | 'scope'>

type Outcome =
  | { kind: 'refused'; reason: string }
  | { kind: 'reused'; revoked: string[] }
  | { kind: 'rotated'; row: RefreshRow; next: string }

/**
 * Strict rotation (SPEC (docs/decisions.md) "Rules" 1, RFC 9700 §4.14.2): each use returns a new refresh token; of two parallel
 * uses exactly one wins (row lock); a superseded token presented again revokes the whole family.
 */
export async function exchangeRefreshToken(
  runtime: Runtime,
  grants: GrantsService,
  client: AppRow,
  params: RefreshTokenParams,
): Promise<TokenResponse> {
  if (!params.refresh_token) throw invalidRequest('refresh_token is required')
  const hash = sha256Hex(params.refresh_token)
  const { database } = runtime
  const orgId = await database.unscoped((q) => repo.orgOfRefreshToken(q, hash))
  if (!orgId) throw invalidGrant('the refresh token is invalid')

  const outcome = await database.transaction(orgId, async (q): Promise<Outcome> => {
    const row = await repo.lockRefreshToken(q, orgId, hash)
    if (!row || row.client_id !== client.id) return { kind: 'refused', reason: 'the refresh token is invalid' }
    if (row.revoked)
      return { kind: 'refused', reason: 'the grant was revoked or the app disconnected; authorize again' }
    if (row.used) {
      const revoked = await repo.revokeGrant(q, orgId, row.grant_id, 'refresh token reused')
      return { kind: 'reused', revoked }
    }
    if (row.expired) return { kind: 'refused', reason: 'the refresh token has expired; authorize again' }
    if (Date.now() - row.grant_created_at.getTime() > runtime.config.grantMaxAgeS * 1000)
      return { kind: 'refused', reason: 'the consent is older than the grant lifetime allows; authorize again' }
    await repo.markRefreshTokenUsed(q, orgId, hash)
    await repo.touchGrant(q, orgId, row.grant_id)
    return { kind: 'rotated', row, next: await newRefreshToken(runtime, q, orgId, row.grant_id) }
  })

  if (outcome.kind === 'reused') {
    await grants.revokeAccess(outcome.revoked)
    throw invalidGrant('the refresh token was already used; the whole token family is revoked')
  }
  if (outcome.kind === 'refused') throw invalidGrant(outcome.reason)
  const { row } = outcome
  // RFC 6749 §6: a narrower scope may be asked for this access token; never a wider one.
  const requested = parseScope(params.scope)
  const outside = requested.filter((s) => !row.scopes.includes(s))
  if (outside.length) throw invalidScope(`the grant does not include: ${outside.join(', ')}`)
  const scopes = requested.length ? row.scopes.filter((s) => requested.includes(s)) : row.scopes
  return tokenResponse(
    runtime,
    { id: row.grant_id, orgId, clientId: client.id, userId: row.user_id },
    scopes,
    outcome.next,
  )
}
