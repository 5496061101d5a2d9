import type { Queryable } from '../../platform/db/database.ts'

export async function insertReset(
  q: Queryable,
  r: { id: string; orgId: string; userId: string; tokenHash: string; ttlSeconds: number },
): Promise<void> {
  // A new link replaces the ones sent before: only the latest works.
  await q.query('UPDATE password_resets SET used_at = now() WHERE org_id = $1 AND user_id = $2 AND used_at IS NULL', [
    r.orgId,
    r.userId,
  ])
  await q.query(
    `INSERT INTO password_resets (id, org_id, user_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [r.id, r.orgId, r.userId, r.tokenHash, r.ttlSeconds],
  )
}

export async function orgOfReset(q: Queryable, tokenHash: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT password_reset_org_of_token($1) AS org_id', [
    tokenHash,
  ])
  return result.rows[0]?.org_id ?? null
}

/** Locks a usable reset (unused, unexpired), so of two uses of one link exactly one sets the password. */
export async function lockUsableReset(
  q: Queryable,
  orgId: string,
  tokenHash: string,
): Promise<{ id: string; user_id: string } | undefined> {
  const result = await q.query<{ id: string; user_id: string }>(
    `SELECT id, user_id FROM password_resets
     WHERE org_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
    [orgId, tokenHash],
  )
  return result.rows[0]
}

export async function markUsed(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE password_resets SET used_at = now() WHERE org_id = $1 AND id = $2', [orgId, id])
}
