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
