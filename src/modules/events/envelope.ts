/** The `apiVersion` of every envelope (DECISIONS.md "Webhooks"). */
export const API_VERSION = '2024-09-15'

export interface EventEnvelope {
  id: string
  event: string
  orgId: string
  timestamp: string
  apiVersion: string
  data: Record<string, unknown>
}

/** An outbox row as SPEC's webhook envelope: `timestamp` is the event's time and never changes. */
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

/**
 * Older names DECISIONS.md accepts for catalog events. Filtering by either name finds the events, which the
 * outbox always stores under the canonical name.
 */
export const EVENT_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'payment.approved': 'payment.captured',
  'inventory.out_of_stock': 'inventory.stockout',
})

export function canonicalEventName(name: string): string {
  return EVENT_ALIASES[name] ?? name
}
