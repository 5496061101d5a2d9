import { createHmac, randomBytes } from 'node:crypto'
import type { EventEnvelope } from '../../platform/events/catalog.ts'

/** docs/decisions.md: `whsec_` followed by base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** The body bytes of a delivery, serialized once and stored, so every retry sends exactly the same bytes. */
export function serializeEnvelope(envelope: EventEnvelope): string {
  return JSON.stringify({
    id: envelope.id,
    event: envelope.event,
    orgId: envelope.orgId,
    timestamp: envelope.timestamp,
    apiVersion: envelope.apiVersion,
    data: envelope.data,
  })
}

/** GitHub-style `sha256=<hex>` keyed with the whole secret string as shown to the subscriber. */
function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

/** Standard Webhooks `v1,<base64>` over `id.timestamp.body`, keyed with the bytes the base64 after `whsec_` encodes. */
function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/**
 * The signature headers of one attempt. `secrets` is the current secret first, then the previous one while a
 * rotation's 24 hours last; each header carries one value per secret.
 */
export function signatureHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  attemptTime: Date,
): Record<string, string> {
  const timestamp = Math.floor(attemptTime.getTime() / 1000)
  return {
    'x-service-signature': secrets.map((s) => serviceSignature(s, body)).join(','),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => standardSignature(s, id, timestamp, body)).join(' '),
  }
}
