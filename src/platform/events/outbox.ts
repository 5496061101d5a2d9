import { newId } from '../crypto/ids.ts'
import type { Queryable } from '../db/database.ts'

/**
 * Writes an event to the outbox in the caller's transaction, so the state change and its event commit
 * together or not at all; workers deliver afterwards. `data` is the resource as the REST API shows it.
 */
export async function emitEvent(q: Queryable, orgId: string, type: string, data: object): Promise<string> {
  const id = newId('evt')
  await q.prepared('outbox_insert', 'INSERT INTO events (id, org_id, type, data) VALUES ($1, $2, $3, $4)', [
    id,
    orgId,
    type,
    JSON.stringify(data),
  ])
  return id
}

export const newEventId = (): string => newId('evt')

/**
 * The outbox insert as a fragment for a repository's own statement (a data-modifying CTE), so a hot path writes
 * its state change and its event in one round trip. The arguments are SQL expressions (usually `$n` placeholders
 * and columns of `from`); `data` must evaluate to jsonb. Same row as emitEvent writes.
 */
export function outboxInsertSql(e: { id: string; orgId: string; type: string; data: string; from: string }): string {
  return `INSERT INTO events (id, org_id, type, data) SELECT ${e.id}, ${e.orgId}, ${e.type}, ${e.data} FROM ${e.from}`
}

/** A timestamptz expression as the JSON of a JavaScript Date (UTC, milliseconds truncated like pg's parser does). */
export function jsonTimestampSql(expr: string): string {
  return `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}
