import { API_VERSION, type EventEnvelope } from '../../platform/events/catalog.ts'
import type { EventRow } from './events.tables.ts'

/** An outbox row as SPEC's webhook envelope. */
export function toEnvelope(row: EventRow): EventEnvelope {
  return {
    id: row.id,
    event: row.type,
    orgId: row.org_id,
    timestamp: row.created_at.toISOString(),
    apiVersion: API_VERSION,
    data: row.data,
  }
}
