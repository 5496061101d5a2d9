import type { Queryable } from '../../platform/db/database.ts'
import { type InvitationRow, type Invitee, invitationColumns } from './auth.tables.ts'

export async function insertInvitation(
  q: Queryable,
  i: { id: string; orgId: string; invitee: Invitee; invitedBy: string | null; tokenHash: string; ttlSeconds: number },
): Promise<InvitationRow> {
  const result = await q.query<InvitationRow>(
    `INSERT INTO invitations (id, org_id, email, name, role, invited_by, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8)) RETURNING ${invitationColumns}`,
    [i.id, i.orgId, i.invitee.email, i.invitee.name, i.invitee.role, i.invitedBy, i.tokenHash, i.ttlSeconds],
  )
  return result.rows[0]
}

export async function orgOfInvitation(q: Queryable, tokenHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT invitation_org_of_token($1) AS org_id', [tokenHash])
  return result.rows[0]?.org_id ?? null
}

export async function invitationByToken(
  q: Queryable,
  orgId: string,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  const result = await q.query<InvitationRow>(
    `SELECT ${invitationColumns} FROM invitations WHERE org_id = $1 AND token_hash = $2`,
    [orgId, tokenHash],
  )
  return result.rows[0]
}

/** Locks the invitation, so of two parallel acceptances exactly one makes the account. */
export async function lockInvitation(
  q: Queryable,
  orgId: string,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  const result = await q.query<InvitationRow>(
    `SELECT ${invitationColumns} FROM invitations WHERE org_id = $1 AND token_hash = $2 FOR UPDATE`,
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

/** Invitations still waiting for their invitee (not accepted, not revoked; expired ones included, flagged). */
export async function pendingInvitations(
  q: Queryable,
  orgId: string,
  afterId: string | null,
  limit: number,
): Promise<InvitationRow[]> {
  const result = await q.query<InvitationRow>(
    `SELECT ${invitationColumns} FROM invitations
     WHERE org_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND ($2::text IS NULL OR id > $2)
     ORDER BY id LIMIT $3`,
    [orgId, afterId, limit],
  )
  return result.rows
}

export async function invitationById(q: Queryable, orgId: string, id: string): Promise<InvitationRow | undefined> {
  const result = await q.query<InvitationRow>(
    `SELECT ${invitationColumns} FROM invitations WHERE org_id = $1 AND id = $2 FOR UPDATE`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function pendingOfEmail(q: Queryable, orgId: string, email: string): Promise<InvitationRow[]> {
  const result = await q.query<InvitationRow>(
    `SELECT ${invitationColumns} FROM invitations
     WHERE org_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND lower(email) = lower($2)`,
    [orgId, email],
  )
  return result.rows
}

/** Revokes the pending invitations of an e-mail (a new invitation replaces them) or one by id. */
export async function revokeInvitations(
  q: Queryable,
  orgId: string,
  by: { id?: string; email?: string },
): Promise<void> {
  await q.query(
    `UPDATE invitations SET revoked_at = now()
     WHERE org_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL
       AND ($2::text IS NULL OR id = $2) AND ($3::text IS NULL OR lower(email) = lower($3))`,
    [orgId, by.id ?? null, by.email ?? null],
  )
}
