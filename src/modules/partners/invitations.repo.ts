import type { Queryable } from '../../platform/db/database.ts'

export interface InvitationRow {
  id: string
  org_id: string
  user_id: string
  email: string
  expired: boolean
  accepted: boolean
}

export async function insertInvitation(
  q: Queryable,
  i: { id: string; orgId: string; userId: string; tokenHash: string; ttlSeconds: number },
): Promise<{ expires_at: Date }> {
  const result = await q.query<{ expires_at: Date }>(
    `INSERT INTO invitations (id, org_id, user_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING expires_at`,
    [i.id, i.orgId, i.userId, i.tokenHash, i.ttlSeconds],
  )
  return result.rows[0]
}

export async function orgOfInvitation(q: Queryable, tokenHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT invitation_org_of_token($1) AS org_id', [tokenHash])
  return result.rows[0]?.org_id ?? null
}

/** Locks the invitation, so of two parallel acceptances exactly one sets the password. */
export async function lockInvitation(
  q: Queryable,
  orgId: string,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  const result = await q.query<InvitationRow>(
    `SELECT i.id, i.org_id, i.user_id, u.email, i.expires_at <= now() AS expired, i.accepted_at IS NOT NULL AS accepted
     FROM invitations i JOIN users u ON u.id = i.user_id AND u.org_id = i.org_id
     WHERE i.org_id = $1 AND i.token_hash = $2
     FOR UPDATE OF i`,
    [orgId, tokenHash],
  )
  return result.rows[0]
}

export async function markAccepted(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE invitations SET accepted_at = now() WHERE org_id = $1 AND id = $2', [orgId, id])
}

/**
 * Sets the invited user's first password. The users table is the auth module's; it has no "set password"
 * use case yet, so this one statement lives here, limited to a user who has never had a password.
 */
export async function setFirstPassword(
  q: Queryable,
  orgId: string,
  userId: string,
  passwordHash: string,
): Promise<boolean> {
  const result = await q.query(
    'UPDATE users SET password_hash = $3, version = version + 1, updated_at = now() WHERE org_id = $1 AND id = $2 AND password_hash IS NULL',
    [orgId, userId, passwordHash],
  )
  return (result.rowCount ?? 0) > 0
}
