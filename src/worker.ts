import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import type { Config } from './config.ts'
import { runFinishers } from './flows/index.ts'
import { startAuditRetention } from './modules/audit/index.ts'
import { startAutomationWorker } from './modules/automations/index.ts'
import { startCampaignClock } from './modules/campaigns/index.ts'
import { startEventRetention } from './modules/events/index.ts'
import { startPointsExpiry } from './modules/loyalty/index.ts'
import { pendingCardAuthorizations } from './modules/payments/index.ts'
import { startWebhookWorker } from './modules/webhooks/index.ts'
import { stalledFlowRuns } from './platform/flows/flow-runs.ts'
import { startIdempotencyPurge } from './platform/http/idempotency-purge.ts'
import { mailerFor, startMailOutbox } from './platform/mail/index.ts'
import { startStalledWork } from './platform/queue/stalled-work.ts'
import { openRuntime, type Runtime } from './platform/runtime.ts'
import { createServices, type Services } from './services.ts'

interface Workers {
  stop(): Promise<void>
}

/**
 * Every background worker of the process: webhook delivery (relay from the outbox, attempts), event retention,
 * the purge of idempotency keys past their 24 hours,
 * automations (DBOS Transact launches and shuts down with them), the campaign clock (starts and ends), the
 * expiry of loyalty points, the finishing of refunds and lay-by cancellations whose request ended half-way, the
 * e-mails requests queued (invitations, password resets) and the audit log's retention.
 */
export function startWorkers(
  runtime: Runtime,
  log: FastifyBaseLogger,
  services: Services = createServices(runtime),
): Workers {
  const webhooks = startWebhookWorker(runtime, { log: log.child({ worker: 'webhooks' }) })
  const retention = startEventRetention(
    runtime.database,
    runtime.config.eventRetentionDays,
    log.child({ worker: 'event-retention' }),
  )
  const idempotencyPurge = startIdempotencyPurge(runtime.database, log.child({ worker: 'idempotency-keys' }))
  const automations = startAutomationWorker(runtime, services, { log: log.child({ worker: 'automations' }) })
  const campaignClock = startCampaignClock(runtime.database, services.campaigns, log.child({ worker: 'campaigns' }))
  const pointsExpiry = startPointsExpiry(runtime.database, services.loyalty, log.child({ worker: 'loyalty' }))
  const flowsLog = log.child({ worker: 'flow-runs' })
  const interruptedRuns = startStalledWork(
    runtime.database,
    stalledFlowRuns(runtime.database, runFinishers(services.flows), flowsLog),
    flowsLog,
  )
  const cards = log.child({ worker: 'offline-cards' })
  const offlineCards = startStalledWork(
    runtime.database,
    pendingCardAuthorizations(
      runtime.database,
      services.payments,
      (ctx, orderId, why) => services.offlineSales.cardDeclined(ctx, orderId, why),
      runtime.config.offlineCardMaxAgeH * 3_600_000,
      cards,
    ),
    cards,
    // A synced card is due at once: a till waits for it, and a card grows no younger.
    { intervalMs: 5_000, olderThanS: 0 },
  )
  const mailLog = log.child({ worker: 'mail' })
  const mailer = mailerFor(runtime.config, mailLog)
  const mail = startMailOutbox({ database: runtime.database, secrets: runtime.secrets, mailer, log: mailLog })
  const auditRetention = startAuditRetention(
    runtime.database,
    runtime.config.auditRetentionDays,
    log.child({ worker: 'audit-log' }),
  )
  return {
    async stop() {
      await Promise.all([
        mail.stop().then(() => mailer.close()),
        auditRetention.stop(),
        webhooks.stop(),
        retention.stop(),
        idempotencyPurge.stop(),
        automations.stop(),
        campaignClock.stop(),
        pointsExpiry.stop(),
        interruptedRuns.stop(),
        offlineCards.stop(),
      ])
    },
  }
}

/**
 * `opentill worker`: background jobs without HTTP. Run as many as needed beside the API (claims skip each
 * other's rows); `serve` runs them too unless WORKERS=false.
 */
export async function runWorker(config: Config): Promise<void> {
  const runtime = await openRuntime(config, { migrate: true })
  const log = pino({ level: config.logLevel }) as unknown as FastifyBaseLogger
  const workers = startWorkers(runtime, log)
  process.stdout.write(
    `OpenTill worker running (webhook delivery, event retention, automations, the campaign clock, points expiry, half-done refunds and lay-by cancellations) on ${runtime.embeddedDir ? `the embedded PostgreSQL in ${runtime.embeddedDir}` : 'the PostgreSQL server'}\n`,
  )
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await workers.stop()
  await runtime.close()
}
