import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { newId } from '../../platform/crypto/ids.ts'
import { rowBinding } from '../../platform/crypto/secret-box.ts'
import type { Database } from '../../platform/db/database.ts'
import { API_VERSION, subscribedName } from '../../platform/events/catalog.ts'
import { type Mailer, mailerFor } from '../../platform/mail/index.ts'
import { listenForWakeups } from '../../platform/queue/pg-listener.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { AddressPolicy } from './address-policy.ts'
import * as deliveries from './deliveries.repo.ts'
import { deliverySignal } from './delivery-signal.ts'
import * as endpoints from './endpoints.repo.ts'
import * as relay from './relay.repo.ts'
import { type SendResult, WebhookSender } from './sender.ts'
import { serializeEnvelope, signatureHeaders } from './signing.ts'
import { notifySuspension } from './suspension-notice.ts'
import type { ClaimedAttempt, EndpointRow } from './webhooks.tables.ts'

/** SPEC: an endpoint is suspended after this many consecutive failed events. */
const SUSPEND_AFTER_FAILED_EVENTS = 10

interface WebhookWorkerOptions {
  /** The database to work through; another pool than the app's one simulates a second worker process. */
  database?: Database
  pollMs?: number
  batchSize?: number
  /** Extra trusted CA (PEM) for endpoints' certificates, beside Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string
  log?: FastifyBaseLogger
  /** Source of jitter, injectable so tests can pin it. */
  random?: () => number
  /** Where suspension notices go; by default SMTP when SMTP_URL is set, else the log. */
  mailer?: Mailer
  /**
   * The worker LISTENs for the outbox trigger's NOTIFY and relays at once; false keeps it to polling (tests of
   * the poll itself).
   */
  listen?: boolean
}

export interface WebhookWorker {
  /** Looks for work now instead of at the next poll (after a commit in this process). */
  nudge(): void
  stop(): Promise<void>
}

const PURGE_EVERY_MS = 10 * 60_000

/**
 * The delivery worker: relays committed outbox rows into one delivery per subscribed endpoint, then sends due
 * attempts. Claims are committed before any HTTP call and results are recorded in a transaction of their own:
 * no outbound call ever runs inside a database transaction.
 */
export function startWebhookWorker(runtime: Runtime, options: WebhookWorkerOptions = {}): WebhookWorker {
  const { config } = runtime
  const database = options.database ?? runtime.database
  const log = options.log ?? (pino({ level: 'silent' }) as unknown as FastifyBaseLogger)
  const batchSize = options.batchSize ?? 50
  const random = options.random ?? Math.random
  const retryDelays = config.webhookRetryDelaysMs
  // A lease outlives the attempt's own deadline, so only a worker that died gives its attempt up.
  const leaseMs = config.webhookTimeoutMs + 15_000
  const sender = new WebhookSender({
    policy: new AddressPolicy(config.webhookAllowNetworks),
    timeoutMs: config.webhookTimeoutMs,
    ca: options.ca,
  })
  let lastPurge = 0
  const mailer = options.mailer ?? mailerFor(config, log)
  const notices = new Set<Promise<void>>()

  /** Sends the owner's notice after the suspending transaction committed, without holding up the batch. */
  function noticeOf(endpoint: EndpointRow): void {
    const sending = notifySuspension({ database, mailer, log, appUrl: config.appUrl }, endpoint).finally(() =>
      notices.delete(sending),
    )
    notices.add(sending)
  }

  async function relayEvents(): Promise<number> {
    return database.unscoped(async (q) => {
      const claimed = await relay.claimRelay(q, batchSize * 4)
      const byOrg = new Map<string, string[]>()
      for (const row of claimed) byOrg.set(row.org_id, [...(byOrg.get(row.org_id) ?? []), row.event_id])
      for (const [orgId, eventIds] of byOrg) {
        await relay.scopeTo(q, orgId)
        const subscriptions = await relay.activeSubscriptions(q, orgId)
        if (subscriptions.length === 0) continue
        const rows: deliveries.NewDelivery[] = []
        for (const event of await relay.eventsByIds(q, orgId, eventIds)) {
          for (const endpoint of subscriptions) {
            const name = subscribedName(endpoint.events, event.type)
            if (!name) continue
            const id = newId('msg')
            // The envelope names the event (as GET /events does); the delivery's own id is the webhook-id header.
            const payload = serializeEnvelope({
              id: event.id,
              event: name,
              orgId,
              timestamp: new Date(event.created_at).toISOString(),
              apiVersion: API_VERSION,
              data: event.data,
            })
            rows.push({ id, orgId, endpointId: endpoint.id, eventId: event.id, event: name, payload, isTest: false })
          }
        }
        await deliveries.insertDeliveries(q, rows)
      }
      return claimed.length
    })
  }

  function retryDelay(roundAttempts: number): number | undefined {
    const base = retryDelays[roundAttempts - 1]
    if (base === undefined) return undefined
    // ±20 % jitter spreads the retries of many deliveries that failed together.
    return Math.round(base * (0.8 + 0.4 * random()))
  }

  /** Records an attempt's outcome; answers the endpoint when this outcome suspended it. */
  async function record(claim: ClaimedAttempt, result: SendResult): Promise<EndpointRow | undefined> {
    return database.transaction(claim.org_id, async (q) => {
      await deliveries.insertAttempt(q, claim.org_id, {
        id: newId('watt'),
        deliveryId: claim.id,
        endpointId: claim.endpoint_id,
        attempt: claim.attempt,
        url: claim.url,
        succeeded: result.succeeded,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
      })
      const outcome = { statusCode: result.statusCode, error: result.error }
      if (result.succeeded) {
        const settled = await deliveries.settleAttempt(q, claim.org_id, claim.id, claim.attempt, {
          status: 'succeeded',
          ...outcome,
        })
        if (settled && !claim.is_test) await endpoints.resetFailures(q, claim.org_id, claim.endpoint_id)
        return undefined
      }
      // A test delivery is tried once and says nothing about the endpoint's health.
      const delay = claim.is_test ? undefined : retryDelay(claim.round_attempts)
      const settled = await deliveries.settleAttempt(
        q,
        claim.org_id,
        claim.id,
        claim.attempt,
        delay === undefined ? { status: 'failed', ...outcome } : { status: 'pending', retryInMs: delay, ...outcome },
      )
      // An attempt whose lease ran out (another worker settled it) says nothing either.
      if (!settled || claim.is_test) return undefined
      await endpoints.markFailing(q, claim.org_id, claim.endpoint_id)
      if (delay !== undefined) return undefined
      return endpoints.countFailure(
        q,
        claim.org_id,
        claim.endpoint_id,
        SUSPEND_AFTER_FAILED_EVENTS,
        `${SUSPEND_AFTER_FAILED_EVENTS} consecutive events failed; last error: ${result.error ?? 'unknown'}`,
      )
    })
  }

  async function attempt(claim: ClaimedAttempt): Promise<void> {
    // Sealed at rest (SECRETS_KEY): opened only for the signature, in memory.
    const binding = rowBinding(endpoints.WEBHOOK_SECRETS_TABLE, claim.org_id, claim.endpoint_id)
    const secrets = (claim.previous_secret ? [claim.secret, claim.previous_secret] : [claim.secret]).map((s) =>
      runtime.secrets.open(s, binding),
    )
    const headers = signatureHeaders(secrets, claim.id, claim.payload, new Date())
    const result = await sender.send(claim.url, claim.payload, headers)
    const suspended = await record(claim, result)
    if (suspended) noticeOf(suspended)
  }

  async function sendDue(): Promise<number> {
    const claims = await database.unscoped((q) => relay.claimAttempts(q, batchSize, leaseMs))
    const outcomes = await Promise.allSettled(claims.map(attempt))
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        log.error(
          { err: outcome.reason },
          'recording a webhook attempt failed; its lease will expire and it is retried',
        )
    }
    return claims.length
  }

  async function tick(): Promise<boolean> {
    const relayed = await relayEvents()
    const sent = await sendDue()
    if (Date.now() - lastPurge > PURGE_EVERY_MS) {
      lastPurge = Date.now()
      const purged = await database.unscoped((q) => relay.purgeExpired(q))
      if (purged > 0) log.info({ purged }, 'expired webhook deliveries purged')
    }
    return relayed >= batchSize * 4 || sent >= batchSize
  }

  const poller: Poller = startPoller({
    intervalMs: options.pollMs ?? 250,
    tick,
    onError: (error) => log.error({ err: error }, 'webhook worker tick failed'),
  })

  const onQueued = () => poller.nudge()
  deliverySignal.on('queued', onQueued)
  // Outbox rows committed by any process wake this worker at once; the poll above stays the safety net.
  const listener =
    options.listen !== false
      ? listenForWakeups({
          connectionString: runtime.appUrl,
          channel: 'webhook_relay',
          onWake: () => poller.nudge(),
          log,
        })
      : undefined

  return {
    nudge: () => poller.nudge(),
    async stop() {
      deliverySignal.off('queued', onQueued)
      await listener?.close()
      await poller.stop()
      await Promise.all(notices)
      if (!options.mailer) mailer.close()
      sender.close()
    },
  }
}
