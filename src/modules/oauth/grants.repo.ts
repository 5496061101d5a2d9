import type { Queryable } from '../../platform/db/database.ts'
import {
  type CodeRow,
  type ConnectionRow,
  type GrantKind,
  type GrantRow,
  grantColumns,
  type RefreshRow,
} from './oauth.tables.ts'

export async function insertGrant(
  q: Queryable,
  g: {
    id: string
    orgId: string
    clientId: string
    kind: GrantKind
    userId: string | null
    scopes: string[]
    parentId?: string | null
  },
): Promise<GrantRow> {
  const result = await q.query<GrantRow>(
    `INSERT INTO oauth_grants (id, org_id, client_id, kind, user_id, scopes, parent_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING ${grantColumns}`,
    [g.id, g.orgId, g.clientId, g.kind, g.userId, g.scopes, g.parentId ?? null],
  )
  return result.rows[0]
}

/** The live connection of a partner app to a tenant org, if any. */
export async function activeConnection(q: Queryable, orgId: string, clientId: string): Promise<GrantRow | undefined> {
  const result = await q.query<GrantRow>(
    `SELECT ${grantColumns} FROM oauth_grants
     WHERE org_id = $1 AND client_id = $2 AND kind = 'connection' AND revoked_at IS NULL
     ORDER BY created_at DESC LIMIT 1`,
    [orgId, clientId],
  )
  return result.rows[0]
}

/** Grants of the org by id, revoked or not. */
export async function grantsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<GrantRow[]> {
  if (ids.length === 0) return []
  const result = await q.query<GrantRow>(
    `SELECT ${grantColumns} FROM oauth_grants WHERE org_id = $1 AND id = ANY($2)`,
    [orgId, ids],
  )
  return result.rows
}

/** Live user authorizations and connections of the org, the rows behind "connected apps". */
export async function liveGrants(q: Queryable, orgId: string): Promise<GrantRow[]> {
  const result = await q.query<GrantRow>(
    `SELECT ${grantColumns} FROM oauth_grants
     WHERE org_id = $1 AND revoked_at IS NULL AND kind IN ('authorization_code', 'connection')
     ORDER BY client_id, created_at`,
    [orgId],
  )
  return result.rows
}

/**
 * The client-credentials grant an app's tokens share (under `parentId`, a tenant connection, or the app's own org
 * when null), if one is live and younger than `maxAgeS`: tokens do not add a grant row each.
 */
export async function reusableClientCredentialsGrant(
  q: Queryable,
  g: { orgId: string; clientId: string; parentId: string | null; maxAgeS: number },
): Promise<GrantRow | undefined> {
  const result = await q.query<GrantRow>(
    `SELECT ${grantColumns} FROM oauth_grants
     WHERE org_id = $1 AND client_id = $2 AND kind = 'client_credentials' AND revoked_at IS NULL
       AND parent_id IS NOT DISTINCT FROM $3 AND created_at > now() - make_interval(secs => $4)
     ORDER BY created_at DESC LIMIT 1`,
    [g.orgId, g.clientId, g.parentId, g.maxAgeS],
  )
  return result.rows[0]
}

export async function touchGrant(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE oauth_grants SET last_used_at = now() WHERE org_id = $1 AND id = $2', [orgId, id])
}

/** Revokes a grant and the grants issued under it; returns the ids whose access tokens must stop at once. */
export async function revokeGrant(q: Queryable, orgId: string, id: string, reason: string): Promise<string[]> {
  const result = await q.query<{ id: string }>(
    `UPDATE oauth_grants SET revoked_at = now(), revoked_reason = $3
     WHERE org_id = $1 AND (id = $2 OR parent_id = $2) AND revoked_at IS NULL RETURNING id`,
    [orgId, id, reason],
  )
  return result.rows.map((r) => r.id)
}

/** Revokes every grant an org gave an app (disconnect); returns the revoked ids. */
export async function revokeGrantsOfClient(
  q: Queryable,
  orgId: string,
  clientId: string,
  reason: string,
): Promise<string[]> {
  const result = await q.query<{ id: string }>(
    `UPDATE oauth_grants SET revoked_at = now(), revoked_reason = $3
     WHERE org_id = $1 AND client_id = $2 AND revoked_at IS NULL RETURNING id`,
    [orgId, clientId, reason],
  )
  return result.rows.map((r) => r.id)
}

/** Live connections of a partner app across tenant orgs (SECURITY DEFINER); callers check the app is theirs. */
export async function connectionsOfClient(q: Queryable, clientId: string): Promise<ConnectionRow[]> {
  const result = await q.query<ConnectionRow>(
    'SELECT org_id, grant_id, scopes, created_at FROM oauth_connections_of_client($1)',
    [clientId],
  )
  return result.rows
}

/** A partner app's allowed scopes, readable from a tenant's transaction; null when it is no partner app. */
export async function partnerAppScopes(q: Queryable, clientId: string): Promise<string[] | null> {
  const result = await q.query<{ scopes: string[] | null }>('SELECT oauth_partner_app_scopes($1) AS scopes', [clientId])
  return result.rows[0]?.scopes ?? null
}

// Authorization codes

export async function orgOfCode(q: Queryable, hash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT oauth_org_of_code($1) AS org_id', [hash])
  return result.rows[0]?.org_id ?? null
}

export async function insertCode(
  q: Queryable,
  c: {
    hash: string
    orgId: string
    clientId: string
    userId: string
    scopes: string[]
    redirectUri: string
    codeChallenge: string | null
    ttlSeconds: number
  },
): Promise<void> {
  await q.query(
    `INSERT INTO oauth_codes (code_hash, org_id, client_id, user_id, scopes, redirect_uri, code_challenge, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [c.hash, c.orgId, c.clientId, c.userId, c.scopes, c.redirectUri, c.codeChallenge, c.ttlSeconds],
  )
}

/** Locks the code row: of two exchanges of one code, the second sees it used. */
export async function lockCode(q: Queryable, orgId: string, hash: string): Promise<CodeRow | undefined> {
  const result = await q.query<CodeRow>(
    `SELECT org_id, client_id, user_id, scopes, redirect_uri, code_challenge, expires_at <= now() AS expired,
            used_at IS NOT NULL AS used, grant_id
     FROM oauth_codes WHERE org_id = $1 AND code_hash = $2 FOR UPDATE`,
    [orgId, hash],
  )
  return result.rows[0]
}

export async function consumeCode(q: Queryable, orgId: string, hash: string, grantId: string | null): Promise<void> {
  await q.query('UPDATE oauth_codes SET used_at = now(), grant_id = $3 WHERE org_id = $1 AND code_hash = $2', [
    orgId,
    hash,
    grantId,
  ])
}

// Refresh tokens

export async function orgOfRefreshToken(q: Queryable, hash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT oauth_org_of_refresh_token($1) AS org_id', [hash])
  return result.rows[0]?.org_id ?? null
}

export async function insertRefreshToken(
  q: Queryable,
  t: { hash: string; orgId: string; grantId: string; ttlSeconds: number },
): Promise<void> {
  await q.query(
    `INSERT INTO oauth_refresh_tokens (token_hash, org_id, grant_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [t.hash, t.orgId, t.grantId, t.ttlSeconds],
  )
}

const refreshSelect = `SELECT rt.grant_id, g.client_id, g.user_id, g.scopes, g.created_at AS grant_created_at,
    rt.expires_at <= now() AS expired,
    rt.used_at IS NOT NULL AS used, g.revoked_at IS NOT NULL AS revoked
  FROM oauth_refresh_tokens rt JOIN oauth_grants g ON g.id = rt.grant_id AND g.org_id = rt.org_id
  WHERE rt.org_id = $1 AND rt.token_hash = $2`

/** Locks the token row, so of two parallel refreshes with one token the second sees it used. */
export async function lockRefreshToken(q: Queryable, orgId: string, hash: string): Promise<RefreshRow | undefined> {
  const result = await q.query<RefreshRow>(`${refreshSelect} FOR UPDATE OF rt`, [orgId, hash])
  return result.rows[0]
}

export async function refreshTokenByHash(q: Queryable, orgId: string, hash: string): Promise<RefreshRow | undefined> {
  const result = await q.query<RefreshRow>(refreshSelect, [orgId, hash])
  return result.rows[0]
}

export async function markRefreshTokenUsed(q: Queryable, orgId: string, hash: string): Promise<void> {
  await q.query('UPDATE oauth_refresh_tokens SET used_at = now() WHERE org_id = $1 AND token_hash = $2', [orgId, hash])
}
