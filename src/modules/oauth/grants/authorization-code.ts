import { newId } from '../../../platform/crypto/ids.ts'
import { sha256Hex } from '../../../platform/crypto/tokens.ts'
import { emitEvent } from '../../../platform/events/outbox.ts'
import type { Runtime } from '../../../platform/runtime.ts'
import { invalidGrant, invalidRequest } from '../errors.ts'
import * as repo from '../grants.repo.ts'
import type { GrantsService } from '../grants.service.ts'
import type { TokenBody, TokenResponse } from '../oauth.schemas.ts'
import type { AppRow, GrantRow } from '../oauth.tables.ts'
import { verifierMatches } from '../pkce.ts'
import { newRefreshToken, tokenResponse } from '../tokens.ts'

/** The parameters this grant reads (RFC 6749 §4.1.3, RFC 7636 §4.5); anything else is ignored. */
type AuthorizationCodeParams = Pick<TokenBody, 'code' | 'redirect_uri' | 'code_verifier'>

type Outcome =
  | { kind: 'refused'; reason: string }
  | { kind: 'replayed'; revoked: string[] }
  | { kind: 'issued'; grant: GrantRow; refreshToken: string }

/**
 * Exchanges an authorization code. The code is consumed atomically (row lock) on its first presentation by
 * its client, whatever the outcome; a replay revokes what the first exchange issued (RFC 6749 §4.1.2,
 * RFC 9700 §4.5); PKCE S256 is checked and a verifier for a code without a challenge is refused (RFC 9700 §2.1.1).
 */
export async function exchangeAuthorizationCode(
  runtime: Runtime,
  grants: GrantsService,
  client: AppRow,
  params: AuthorizationCodeParams,
): Promise<TokenResponse> {
  if (!params.code) throw invalidRequest('code is required')
  if (!params.redirect_uri) throw invalidRequest('redirect_uri is required')
  const hash = sha256Hex(params.code)
  const { database } = runtime
  const orgId = await database.unscoped((q) => repo.orgOfCode(q, hash))
  if (!orgId) throw invalidGrant('the authorization code is invalid')

  const outcome = await database.transaction(orgId, async (q): Promise<Outcome> => {
    const code = await repo.lockCode(q, orgId, hash)
    // Another client's code is refused without touching it: only its owner can burn or replay it.
    if (!code || code.client_id !== client.id) return { kind: 'refused', reason: 'the authorization code is invalid' }
    if (code.used) {
      const revoked = code.grant_id
        ? await repo.revokeGrant(q, orgId, code.grant_id, 'authorization code replayed')
        : []
      return { kind: 'replayed', revoked }
    }
    await repo.consumeCode(q, orgId, hash, null)
    if (code.expired) return { kind: 'refused', reason: 'the authorization code has expired' }
    if (params.redirect_uri !== code.redirect_uri) {
      return { kind: 'refused', reason: 'redirect_uri differs from the one of the authorization request' }
    }
    if (code.code_challenge) {
      if (!params.code_verifier)
        return { kind: 'refused', reason: 'code_verifier is required (the request carried a code_challenge)' }
      if (!verifierMatches(params.code_verifier, code.code_challenge))
        return { kind: 'refused', reason: 'code_verifier does not match the code_challenge' }
    } else if (params.code_verifier !== undefined) {
      return { kind: 'refused', reason: 'code_verifier was sent for a code issued without code_challenge' }
    }
    const grant = await repo.insertGrant(q, {
      id: newId('grant'),
      orgId,
      clientId: client.id,
      kind: 'authorization_code',
      userId: code.user_id,
      scopes: code.scopes,
    })
    await repo.consumeCode(q, orgId, hash, grant.id)
    const refreshToken = await newRefreshToken(runtime, q, orgId, grant.id)
    await emitEvent(q, orgId, 'app.connected', {
      client_id: client.id,
      grant_id: grant.id,
      kind: grant.kind,
      scopes: grant.scopes,
      user_id: grant.user_id,
    })
    return { kind: 'issued', grant, refreshToken }
  })

  if (outcome.kind === 'replayed') {
    await grants.revokeAccess(outcome.revoked)
    throw invalidGrant('the authorization code was already used; the tokens issued for it are revoked')
  }
  if (outcome.kind === 'refused') throw invalidGrant(outcome.reason)
  const { grant } = outcome
  return tokenResponse(
    runtime,
    { id: grant.id, orgId, clientId: client.id, userId: grant.user_id },
    grant.scopes,
    outcome.refreshToken,
  )
}
