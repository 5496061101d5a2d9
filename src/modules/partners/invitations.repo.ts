import type { Queryable } from '../../platform/db/database.ts'
import type { InvitationRow, Invitee } from './partners.tables.ts'

export async function insertInvitation(
  q: Queryable,
  i: { id: string; orgId: string; invitee: Invitee; tokenHash: string; ttlSeconds: number },
): Promise<{ expires_at: Date }> {
  const result = await q.query<{ expires_at: Date }>(
    `INSERT INTO invitations (id, org_id, email, name, role, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) RETURNING expires_at`,
    [i.id, i.orgId, i.invitee.email, i.invitee.name, i.invitee.role, i.tokenHash, i.ttlSeconds],
  )
  return result.rows[0]
}

export async function orgOfInvitation(q: Queryable, tokenHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT invitation_org_of_token($1) AS org_id', [tokenHash])
  return result.rows[0]?.org_id ?? null
}

/** Locks the invitation, so of two parallel acceptances exactly one makes the account. */
export async function lockInvitation(
  q: Queryable,
  orgId: string,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  const result = await q.query<InvitationRow>(
    `SELECT id, org_id, email, name, role, expires_at <= now() AS expired, accepted_at IS NOT NULL AS accepted
     FROM invitations WHERE org_id = $1 AND token_hash = $2
     FOR UPDATE`,
    [orgId, tokenHash],
  )
  return result.rows[0]
}

export async function markAccepted(q: Queryable, orgId: string, id: string, userId: string): Promise<void> {
  await q.query('UPDATE invitations SET accepted_at = now(), user_id = $3 WHERE org_id = $1 AND id = $2', [
    orgId,
    id,
    userId,
  ])
}
