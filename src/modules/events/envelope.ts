import { API_VERSION, type EventEnvelope } from '../../platform/events/catalog.ts'

/** An outbox row as SPEC's webhook envelope. */
export function toEnvelope(row: {
  id: string
  org_id: string
  type: string
  data: Record<string, unknown>
  created_at: Date
}): EventEnvelope {
  return {
    id: row.id,
    event: row.type,
    orgId: row.org_id,
    timestamp: row.created_at.toISOString(),
    apiVersion: API_VERSION,
    data: row.data,
  }
}
