import type { Database, Queryable } from '../db/database.ts'
import { endRequestRun, hasSteps, type RequestRun, requestSteps } from '../flows/request-runs.ts'

/** How long an attempt holds its key: longer than any request runs (a processor's timeout included). */
const IDEMPOTENCY_LOCK_S = 60

/** Which request a key belongs to: the org, the caller (client and user) and the key. */
export interface KeyRef {
  orgId: string
  scope: string
  key: string
}

/** A claimed key, with the steps its attempts recorded: its request's run (platform/flows/request-runs.ts). */
export type ClaimedKey = RequestRun

type Claim =
  | { kind: 'run'; steps: Record<string, unknown> }
  | { kind: 'replay'; statusCode: number; contentType: string; body: string }
  | { kind: 'reused' }
  | { kind: 'in-progress' }
  | { kind: 'interrupted' }

interface KeyRow {
  fingerprint: string
  state: 'in_progress' | 'completed'
  status_code: number | null
  content_type: string | null
  body: string | null
  work_committed: boolean
  fresh: boolean
  locked: boolean
}

const WHERE_KEY = 'org_id = $1 AND client_id = $2 AND key = $3'

/**
 * Claims a key for one attempt, in a transaction of its own that commits before the request's work starts: a
 * new key is recorded "in progress"; a completed one is replayed; a key held by a running attempt is refused; a
 * key whose attempt stopped without an answer is taken over if nothing was committed (or the route can resume
 * from its recorded steps), and refused as interrupted otherwise.
 */
export function claimKey(database: Database, ref: KeyRef, fingerprint: string, resumable: boolean): Promise<Claim> {
  return database.transaction(ref.orgId, async (q) => {
    const params = [ref.orgId, ref.scope, ref.key]
    const inserted = await q.query(
      `INSERT INTO idempotency_keys (org_id, client_id, key, fingerprint, state, locked_until)
       VALUES ($1, $2, $3, $4, 'in_progress', now() + make_interval(secs => $5))
       ON CONFLICT (org_id, client_id, key) DO NOTHING`,
      [...params, fingerprint, IDEMPOTENCY_LOCK_S],
    )
    if (inserted.rowCount) return { kind: 'run', steps: {} }
    const found = await q.query<KeyRow>(
      `SELECT fingerprint, state, status_code, content_type, body, work_committed,
              created_at > now() - interval '24 hours' AS fresh, COALESCE(locked_until > now(), false) AS locked
       FROM idempotency_keys WHERE ${WHERE_KEY} FOR UPDATE`,
      params,
    )
    const row = found.rows[0]
    if (!row) return { kind: 'in-progress' }
    if (!row.fresh) {
      // An expired key the purge has not reached yet: a new request, without the old one's steps.
      await endRequestRun(q, ref)
      await q.query(
        `UPDATE idempotency_keys SET fingerprint = $4, state = 'in_progress', work_committed = false,
           status_code = NULL, content_type = NULL, body = NULL, created_at = now(),
           locked_until = now() + make_interval(secs => $5)
         WHERE ${WHERE_KEY}`,
        [...params, fingerprint, IDEMPOTENCY_LOCK_S],
      )
      return { kind: 'run', steps: {} }
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' }
    if (row.state === 'completed')
      return { kind: 'replay', statusCode: row.status_code!, contentType: row.content_type!, body: row.body! }
    if (row.locked) return { kind: 'in-progress' }
    if (row.work_committed && !resumable) return { kind: 'interrupted' }
    await q.query(`UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $4) WHERE ${WHERE_KEY}`, [
      ...params,
      IDEMPOTENCY_LOCK_S,
    ])
    return { kind: 'run', steps: await requestSteps(q, ref) }
  })
}

/** Stores the answer, last: the key is completed and replays it from now on. */
export async function completeKey(
  database: Database,
  ref: KeyRef,
  answer: { statusCode: number; contentType: string; body: string },
): Promise<void> {
  await database.transaction(ref.orgId, (q) =>
    q.query(
      `UPDATE idempotency_keys SET state = 'completed', status_code = $4, content_type = $5, body = $6, locked_until = NULL
       WHERE ${WHERE_KEY}`,
      [ref.orgId, ref.scope, ref.key, answer.statusCode, answer.contentType, answer.body],
    ),
  )
}

/**
 * A failed attempt. A refused one (4xx) changed nothing (the services undo what they began, a processor's hold
 * included), so its key is forgotten and a retry is a new request; so is one that committed nothing and recorded
 * no step. Otherwise the key is released at once, for a retry to resume or be told it was interrupted.
 */
export async function releaseKey(database: Database, ref: ClaimedKey, refused: boolean): Promise<void> {
  await database.transaction(ref.orgId, async (q) => {
    // No other attempt runs while this one holds the key: the steps it knows are the key's.
    const forgotten = await q.query(
      `DELETE FROM idempotency_keys WHERE ${WHERE_KEY} AND ($4 OR (NOT work_committed AND $5))`,
      [ref.orgId, ref.scope, ref.key, refused, !hasSteps(ref)],
    )
    if (!forgotten.rowCount)
      await q.query(`UPDATE idempotency_keys SET locked_until = now() WHERE ${WHERE_KEY}`, [
        ref.orgId,
        ref.scope,
        ref.key,
      ])
    else if (hasSteps(ref)) await endRequestRun(q, ref)
  })
}

/** Marks, inside a transaction of the request's work, that the attempt committed something (if that transaction does). */
export function markWorkCommitted(q: Queryable, ref: KeyRef): Promise<unknown> {
  return q.query(`UPDATE idempotency_keys SET work_committed = true WHERE ${WHERE_KEY}`, [
    ref.orgId,
    ref.scope,
    ref.key,
  ])
}

/** Deletes one batch of keys past their 24 hours, across orgs; answers how many went. */
export async function purgeExpiredKeys(database: Database): Promise<number> {
  const result = await database.unscoped((q) =>
    q.query<{ purged: number }>('SELECT idempotency_purge_expired() AS purged'),
  )
  return result.rows[0].purged
}
