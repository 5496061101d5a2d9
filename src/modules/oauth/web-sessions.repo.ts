import type { Queryable } from '../../platform/db/database.ts'
import type { WebSessionRow } from './oauth.tables.ts'

export async function orgOfWebSession(q: Queryable, hash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT web_org_of_session($1) AS org_id', [hash])
  return result.rows[0]?.org_id ?? null
}

export async function insertWebSession(
  q: Queryable,
  s: {
    hash: string
    orgId: string
    userId: string
    userEmail: string
    scopes: string[]
    csrfToken: string
    apiSessionId: string
    ttlSeconds: number
  },
): Promise<void> {
  await q.query(
    `WITH pruned AS (DELETE FROM web_sessions WHERE org_id = $2 AND expires_at < now())
     INSERT INTO web_sessions (token_hash, org_id, user_id, user_email, scopes, csrf_token, expires_at, api_session_id)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), $8)`,
    [s.hash, s.orgId, s.userId, s.userEmail, s.scopes, s.csrfToken, s.ttlSeconds, s.apiSessionId],
  )
}

export async function webSessionByHash(q: Queryable, orgId: string, hash: string): Promise<WebSessionRow | undefined> {
  const result = await q.query<WebSessionRow>(
    `SELECT org_id, user_id, user_email, scopes, csrf_token, api_session_id FROM web_sessions
     WHERE org_id = $1 AND token_hash = $2 AND expires_at > now()`,
    [orgId, hash],
  )
  return result.rows[0]
}

export async function deleteWebSessionsOfUser(q: Queryable, orgId: string, userId: string): Promise<void> {
  await q.query('DELETE FROM web_sessions WHERE org_id = $1 AND user_id = $2', [orgId, userId])
}

export async function deleteWebSessionsOfApiSession(q: Queryable, orgId: string, apiSessionId: string) {
  await q.query('DELETE FROM web_sessions WHERE org_id = $1 AND api_session_id = $2', [orgId, apiSessionId])
}

export async function deleteWebSession(q: Queryable, orgId: string, hash: string): Promise<void> {
  await q.query('DELETE FROM web_sessions WHERE org_id = $1 AND token_hash = $2', [orgId, hash])
}
