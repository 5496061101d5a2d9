import { newId } from '../../../platform/crypto/ids.ts'
import type { Queryable } from '../../../platform/db/database.ts'
import type { Runtime } from '../../../platform/runtime.ts'
import { invalidGrant, invalidRequest, invalidScope, OAuthError } from '../errors.ts'
import * as repo from '../grants.repo.ts'
import type { TokenBody, TokenResponse } from '../oauth.schemas.ts'
import type { AppRow } from '../oauth.tables.ts'
import { PARTNER_SCOPE, parseScope } from '../scope.ts'
import { tokenResponse } from '../tokens.ts'

/** The parameters this grant reads (RFC 6749 §4.4.2, plus `org_id` naming a connected tenant). */
type ClientCredentialsParams = Pick<TokenBody, 'scope' | 'org_id'>

const ORG_ID = /^org_[0-9a-z]{1,64}$/

/**
 * Partner credentials (docs/decisions.md "Scopes"): a confidential partner app gets a token for its own org with
 * `partners:write` and its allowed scopes, or with `org_id` a token for a tenant it is connected to, with the
 * connection's scopes. Each issuance is its own grant under the connection, so a disconnect revokes it too.
 * No refresh token is issued (RFC 6749 §4.4.3).
 */
/**
 * The grant an app's client-credentials tokens share (per tenant connection, or for its own org): found while it
 * is live and younger than GRANT_MAX_AGE_S, made otherwise. Revoking one token revokes it, and with it the
 * others; the next token request makes a new one.
 */
async function sharedGrant(
  q: Queryable,
  runtime: Runtime,
  g: { orgId: string; clientId: string; parentId: string | null; scopes: string[] },
) {
  const found = await repo.reusableClientCredentialsGrant(q, { ...g, maxAgeS: runtime.config.grantMaxAgeS })
  if (found) {
    await repo.touchGrant(q, g.orgId, found.id)
    return found
  }
  return repo.insertGrant(q, { id: newId('grant'), kind: 'client_credentials', userId: null, ...g })
}

export async function exchangeClientCredentials(
  runtime: Runtime,
  client: AppRow,
  params: ClientCredentialsParams,
): Promise<TokenResponse> {
  if (!client.confidential || !client.partner) {
    throw new OAuthError('unauthorized_client', 'client credentials are only for confidential partner apps')
  }
  const requested = parseScope(params.scope)
  const narrow = (available: string[]) => {
    if (requested.length === 0) return available
    const outside = requested.filter((s) => !available.includes(s))
    if (outside.length) throw invalidScope(`not available to this client: ${outside.join(', ')}`)
    return available.filter((s) => requested.includes(s))
  }
  const { database } = runtime
  const tenant = params.org_id
  if (tenant !== undefined && !ORG_ID.test(tenant)) throw invalidRequest('org_id is not an org id')

  if (tenant === undefined || tenant === client.org_id) {
    const available = [PARTNER_SCOPE, ...client.allowed_scopes]
    const scopes = narrow(available)
    const grant = await database.transaction(client.org_id, (q) =>
      sharedGrant(q, runtime, { orgId: client.org_id, clientId: client.id, parentId: null, scopes: available }),
    )
    return tokenResponse(
      runtime,
      { id: grant.id, orgId: client.org_id, clientId: client.id, userId: null },
      scopes,
      undefined,
    )
  }

  const issued = await database.transaction(tenant, async (q) => {
    const connection = await repo.activeConnection(q, tenant, client.id)
    if (!connection) return null
    const scopes = narrow(connection.scopes)
    await repo.touchGrant(q, tenant, connection.id)
    const grant = await sharedGrant(q, runtime, {
      orgId: tenant,
      clientId: client.id,
      parentId: connection.id,
      scopes: connection.scopes,
    })
    return { grant, scopes }
  })
  if (!issued) throw invalidGrant('the app is not connected to that org')
  return tokenResponse(
    runtime,
    { id: issued.grant.id, orgId: tenant, clientId: client.id, userId: null },
    issued.scopes,
    undefined,
  )
}
