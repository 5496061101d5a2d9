import type { Queryable } from '../../platform/db/database.ts'
import type { Role } from '../../platform/http/context.ts'
import { type MembershipRow, type PersonRow, type RefreshRow, type UserRow, userColumns } from './auth.tables.ts'

export async function personByEmail(q: Queryable, email: string): Promise<PersonRow | undefined> {
  const result = await q.query<PersonRow>('SELECT * FROM auth_person_by_email($1)', [email.trim()])
  return result.rows[0]
}

export async function personById(q: Queryable, id: string): Promise<PersonRow | undefined> {
  const result = await q.query<PersonRow>('SELECT * FROM auth_person_by_id($1)', [id])
  return result.rows[0]
}

export async function membershipsOf(q: Queryable, personId: string): Promise<MembershipRow[]> {
  const result = await q.query<MembershipRow>('SELECT * FROM auth_memberships($1)', [personId])
  return result.rows
}

/** Makes a person; false when the e-mail already belongs to one. */
export async function insertPerson(q: Queryable, p: { id: string; email: string; hash: string }): Promise<boolean> {
  const result = await q.query<{ made: boolean }>('SELECT auth_insert_person($1, $2, $3) AS made', [
    p.id,
    p.email,
    p.hash,
  ])
  return result.rows[0]?.made === true
}

export async function setPersonPassword(q: Queryable, personId: string, hash: string): Promise<void> {
  await q.query('SELECT auth_set_person_password($1, $2)', [personId, hash])
}

export async function orgOfRefreshToken(q: Queryable, tokenHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT auth_org_of_refresh_token($1) AS org_id', [tokenHash])
  return result.rows[0]?.org_id ?? null
}

export async function insertUser(
  q: Queryable,
  user: { id: string; orgId: string; email: string; name: string; role: Role; personId: string },
): Promise<UserRow> {
  const result = await q.query<UserRow>(
    `INSERT INTO users (id, org_id, email, name, role, person_id) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING ${userColumns}`,
    [user.id, user.orgId, user.email, user.name, user.role, user.personId],
  )
  return result.rows[0]
}

export async function userByEmail(q: Queryable, orgId: string, email: string): Promise<UserRow | undefined> {
  const result = await q.query<UserRow>(
    `SELECT ${userColumns} FROM users WHERE org_id = $1 AND lower(email) = lower($2)`,
    [orgId, email],
  )
  return result.rows[0]
}

export async function userById(q: Queryable, orgId: string, id: string): Promise<UserRow | undefined> {
  const result = await q.query<UserRow>(`SELECT ${userColumns} FROM users WHERE org_id = $1 AND id = $2`, [orgId, id])
  return result.rows[0]
}

/** Role and deactivation of users of the org (what an automation's author still holds). */
export async function standingsOfUsers(
  q: Queryable,
  orgId: string,
  ids: readonly string[],
): Promise<{ id: string; role: UserRow['role']; deactivated: boolean }[]> {
  if (ids.length === 0) return []
  const result = await q.query<{ id: string; role: UserRow['role']; deactivated: boolean }>(
    'SELECT id, role, deactivated_at IS NOT NULL AS deactivated FROM users WHERE org_id = $1 AND id = ANY($2)',
    [orgId, ids],
  )
  return result.rows
}

export async function insertSession(
  q: Queryable,
  s: {
    id: string
    orgId: string
    userId: string
    deviceId: string | null
    registerId: string | null
  },
): Promise<void> {
  await q.query(`INSERT INTO auth_sessions (id, org_id, user_id, device_id, register_id) VALUES ($1, $2, $3, $4, $5)`, [
    s.id,
    s.orgId,
    s.userId,
    s.deviceId,
    s.registerId,
  ])
}

export async function insertRefreshToken(
  q: Queryable,
  t: { hash: string; orgId: string; sessionId: string; ttlSeconds: number },
): Promise<void> {
  await q.query(
    `INSERT INTO refresh_tokens (token_hash, org_id, session_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [t.hash, t.orgId, t.sessionId, t.ttlSeconds],
  )
}

/** Locks the token row, so of two parallel refreshes with one token the second sees it used. */
export async function lockRefreshToken(q: Queryable, orgId: string, hash: string): Promise<RefreshRow | undefined> {
  const result = await q.query<RefreshRow>(
    `SELECT rt.session_id, s.user_id, s.register_id, rt.expires_at <= now() AS expired, rt.used_at IS NOT NULL AS used,
            s.revoked_at IS NOT NULL AS revoked
     FROM refresh_tokens rt JOIN auth_sessions s ON s.id = rt.session_id AND s.org_id = rt.org_id
     WHERE rt.org_id = $1 AND rt.token_hash = $2
     FOR UPDATE OF rt`,
    [orgId, hash],
  )
  return result.rows[0]
}

export async function markRefreshTokenUsed(q: Queryable, orgId: string, hash: string): Promise<void> {
  await q.query('UPDATE refresh_tokens SET used_at = now() WHERE org_id = $1 AND token_hash = $2', [orgId, hash])
}

export async function touchSession(q: Queryable, orgId: string, sessionId: string): Promise<void> {
  await q.query('UPDATE auth_sessions SET last_used_at = now() WHERE org_id = $1 AND id = $2', [orgId, sessionId])
}

export async function sessionIsLive(q: Queryable, orgId: string, sessionId: string): Promise<boolean> {
  const result = await q.query('SELECT 1 FROM auth_sessions WHERE org_id = $1 AND id = $2 AND revoked_at IS NULL', [
    orgId,
    sessionId,
  ])
  return (result.rowCount ?? 0) > 0
}

export async function revokeSession(q: Queryable, orgId: string, sessionId: string, reason: string): Promise<void> {
  await q.query(
    'UPDATE auth_sessions SET revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, $3) WHERE org_id = $1 AND id = $2',
    [orgId, sessionId, reason],
  )
}

/** The e-mail of the org's first owner (the one who created it, unless removed), for notices to the org. */
export async function ownerEmailOf(q: Queryable, orgId: string): Promise<string | null> {
  const result = await q.query<{ email: string }>(
    `SELECT email FROM users WHERE org_id = $1 AND role = 'owner' ORDER BY created_at, id LIMIT 1`,
    [orgId],
  )
  return result.rows[0]?.email ?? null
}

export async function listUsers(
  q: Queryable,
  orgId: string,
  f: { role?: Role; deactivated?: boolean; afterId: string | null; limit: number },
): Promise<UserRow[]> {
  const result = await q.query<UserRow>(
    `SELECT ${userColumns} FROM users
     WHERE org_id = $1 AND ($2::text IS NULL OR role = $2)
       AND ($3::boolean IS NULL OR (deactivated_at IS NOT NULL) = $3)
       AND ($4::text IS NULL OR id > $4)
     ORDER BY id LIMIT $5`,
    [orgId, f.role ?? null, f.deactivated ?? null, f.afterId, f.limit],
  )
  return result.rows
}

export async function lockUser(q: Queryable, orgId: string, id: string): Promise<UserRow | undefined> {
  const result = await q.query<UserRow>(`SELECT ${userColumns} FROM users WHERE org_id = $1 AND id = $2 FOR UPDATE`, [
    orgId,
    id,
  ])
  return result.rows[0]
}

/**
 * Locks the org's active owners, in id order, and answers their ids: of two requests that would each remove an
 * owner, the second sees what the first left.
 */
export async function lockActiveOwners(q: Queryable, orgId: string): Promise<string[]> {
  const result = await q.query<{ id: string }>(
    `SELECT id FROM users WHERE org_id = $1 AND role = 'owner' AND deactivated_at IS NULL ORDER BY id FOR UPDATE`,
    [orgId],
  )
  return result.rows.map((r) => r.id)
}

export async function updateUser(
  q: Queryable,
  orgId: string,
  id: string,
  fields: { name: string; role: Role; deactivated: boolean },
): Promise<UserRow> {
  const result = await q.query<UserRow>(
    `UPDATE users SET name = $3, role = $4,
       deactivated_at = CASE WHEN $5 THEN coalesce(deactivated_at, now()) END,
       version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${userColumns}`,
    [orgId, id, fields.name, fields.role, fields.deactivated],
  )
  return result.rows[0]
}

/**
 * Ends the sessions of a user (all but `keep`) or of a till: marks them revoked and answers the ids whose access
 * tokens may still be alive (revoked now, or within `recentS`), for the revocation list every instance checks.
 */
export async function endSessions(
  q: Queryable,
  orgId: string,
  of: { userId: string } | { deviceId: string },
  s: { reason: string; recentS: number; keep?: string },
): Promise<string[]> {
  const [column, value] = 'userId' in of ? ['user_id', of.userId] : ['device_id', of.deviceId]
  const result = await q.query<{ id: string }>(
    `UPDATE auth_sessions SET revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, $3)
     WHERE org_id = $1 AND ${column} = $2 AND ($5::text IS NULL OR id <> $5)
       AND (revoked_at IS NULL OR revoked_at > now() - make_interval(secs => $4))
     RETURNING id`,
    [orgId, value, s.reason, s.recentS, s.keep ?? null],
  )
  return result.rows.map((r) => r.id)
}

/** An active user, its row share-locked for the rest of the transaction (opening a session); else undefined. */
export async function activeUserShared(q: Queryable, orgId: string, id: string): Promise<UserRow | undefined> {
  const result = await q.query<UserRow>(
    `SELECT ${userColumns} FROM users WHERE org_id = $1 AND id = $2 AND deactivated_at IS NULL FOR SHARE`,
    [orgId, id],
  )
  return result.rows[0]
}
