import { type Static, Type } from 'typebox'
import { Timestamp } from '../http/schemas.ts'
/** The `apiVersion` of every event envelope, webhook or events API (docs/decisions.md "Webhooks"). */
export const API_VERSION = '2024-09-15'

/** The webhook envelope of SPEC (docs/decisions.md) "Events", so a missed delivery and its recovery look the same. */
export const EventEnvelopeSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_… identifier, also the id of the webhook envelope of this event' }),
    event: Type.String({ description: 'event name, e.g. order.created' }),
    orgId: Type.String(),
    timestamp: Timestamp,
    apiVersion: Type.String({ description: 'date-formatted API version of the payload' }),
    data: Type.Object(
      {},
      { additionalProperties: true, description: 'the affected resource as the REST API shows it' },
    ),
  },
  { $id: 'EventEnvelope' },
)

/** SPEC's webhook envelope: `id` is stable across retries, `timestamp` is the event's time and never changes. */
export type EventEnvelope = Static<typeof EventEnvelopeSchema>

/**
 * SPEC's 17-event catalog plus the events docs/decisions.md adds. Subscribers choose from these and from the two
 * aliases, and receive each event under the name they subscribed with.
 */
const EVENT_CATALOG = [
  'order.created',
  'order.completed',
  'order.refunded',
  'payment.captured',
  'payment.failed',
  'customer.created',
  'customer.updated',
  'inventory.low_stock',
  'inventory.stockout',
  'loyalty.points_earned',
  'loyalty.tier_changed',
  'layby.created',
  'layby.payment_received',
  'layby.completed',
  'layby.cancelled',
  'gift_card.issued',
  'gift_card.redeemed',
  'loyalty.points_redeemed',
  'inventory.transfer_completed',
  'automation.triggered',
  'campaign.started',
  'campaign.ended',
  'campaign.voucher_redeemed',
  'order.voided',
  'order.updated',
  'user.invited',
  'user.joined',
  'user.updated',
  'user.deactivated',
  'inventory.negative',
] as const

/**
 * Names from SPEC's change history that are the same events as catalog names. The outbox always stores the
 * canonical name; subscribers and event filters may use either.
 */
const EVENT_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'payment.approved': 'payment.captured',
  'inventory.out_of_stock': 'inventory.stockout',
})

const known = new Set<string>([...EVENT_CATALOG, ...Object.keys(EVENT_ALIASES)])

/** The catalog's names, in its order (aliases not included). */
export function catalogEvents(): readonly string[] {
  return EVENT_CATALOG
}

/** The other names a catalog event goes by (SPEC's older names), none for most. */
export function aliasesOf(event: string): string[] {
  return Object.keys(EVENT_ALIASES).filter((alias) => EVENT_ALIASES[alias] === event)
}

export function isSubscribableEvent(name: string): boolean {
  return known.has(name)
}

/** The outbox name of an event a subscriber names (an alias resolves to its catalog name). */
export function canonicalEvent(name: string): string {
  return EVENT_ALIASES[name] ?? name
}

/** The name under which an endpoint subscribed to `outboxType`, or undefined when it did not. */
export function subscribedName(events: readonly string[], outboxType: string): string | undefined {
  return events.find((name) => canonicalEvent(name) === outboxType)
}
