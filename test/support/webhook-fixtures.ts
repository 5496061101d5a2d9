import assert from 'node:assert/strict'
import { startWebhookWorker, type WebhookWorker } from '../../src/modules/webhooks/index.ts'
import { emitEvent } from '../../src/platform/events/outbox.ts'
import { clientFor, createMerchant, type Merchant, type TestApp } from './harness.ts'
import { type HttpsReceiver, testPki } from './https-receiver.ts'

/**
 * Config for apps that deliver to the local HTTPS receiver: loopback allowed, no retries (a failure fails at
 * once), and a timeout that still suits a loaded CI machine.
 */
export const RECEIVER_ENV = {
  WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
  WEBHOOK_RETRY_DELAYS: '',
  WEBHOOK_TIMEOUT_MS: '2000',
} as const

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A webhook worker that trusts the receiver's test CA and polls fast, so tests wait milliseconds, not seconds. */
export function startTestWorker(
  app: TestApp,
  options: Omit<NonNullable<Parameters<typeof startWebhookWorker>[1]>, 'ca'> = {},
): WebhookWorker {
  return startWebhookWorker(app.runtime, { ca: testPki().ca, pollMs: 40, ...options })
}

/** Commits one event to the merchant's outbox, as a module's write would. Resolves to the event id. */
export function emitAs(app: TestApp, merchant: Merchant, type: string, data: object) {
  return app.runtime.database.transaction(merchant.orgId, (q) => emitEvent(q, merchant.orgId, type, data))
}

/** A fresh org with one integration and one endpoint at `path`, so tests do not see each other's events. */
export async function subscriber<Hook = { id: string; secret: string; version: number }>(
  app: TestApp,
  receiver: HttpsReceiver,
  path: string,
  events: string[],
) {
  const merchant = await createMerchant(app)
  const api = clientFor(app.api, merchant.token)
  const integration = (await api.post('/api/v1/integrations', { name: 'Receiver', type: 'custom' })).body.data
  const res = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, { url: receiver.url(path), events })
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return { merchant, api, integration, hook: res.body.data as Hook }
}
