import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import type { Mailer } from '../../platform/mail/index.ts'
import { ownerEmailOf } from '../auth/index.ts'
import * as endpoints from './endpoints.repo.ts'
import type { EndpointRow } from './webhooks.tables.ts'

interface SuspensionNoticeDeps {
  database: Database
  mailer: Mailer
  log: FastifyBaseLogger
  /** Where the dashboard listens (APP_URL), for the link in the e-mail. */
  appUrl: string
}

function message(endpoint: EndpointRow, appUrl: string): { subject: string; text: string } {
  return {
    subject: `Webhook endpoint suspended: ${endpoint.url}`,
    text: [
      'OpenTill stopped delivering webhooks to one of your endpoints.',
      '',
      `Endpoint: ${endpoint.url} (${endpoint.id})`,
      `Suspended at: ${endpoint.suspended_at?.toISOString() ?? 'now'}`,
      `Reason: ${endpoint.suspension_reason ?? 'consecutive failed events'}`,
      '',
      'New events are not queued for it while it is suspended; failed events stay replayable for 72 hours.',
      `Fix the receiver, then resume it and replay what failed on the Webhooks page: ${appUrl}/dashboard/webhooks`,
      `or with POST /api/v1/webhooks/endpoints/${endpoint.id}/enable.`,
    ].join('\n'),
  }
}

/**
 * Tells the org's owner that an endpoint was suspended, by e-mail when SMTP is configured, else in the log, and
 * records which on the endpoint for the dashboard. Called after the suspending transaction committed: a notice
 * is never sent for a suspension that rolled back, and no SMTP wait ever holds a transaction open. Never throws:
 * a failed e-mail falls back to the log.
 */
export async function notifySuspension(deps: SuspensionNoticeDeps, endpoint: EndpointRow): Promise<void> {
  const { database, mailer, log, appUrl } = deps
  const orgId = endpoint.org_id
  const context = { orgId, webhookId: endpoint.id, url: endpoint.url }
  try {
    const to = await database.read(orgId, (q) => ownerEmailOf(q, orgId))
    const { subject, text } = message(endpoint, appUrl)
    let channel: 'email' | 'log' = 'log'
    if (!to) {
      log.warn({ ...context, text }, `${subject} (the org has no owner to notify)`)
    } else {
      try {
        await mailer.send({ to, subject, text })
        channel = mailer.channel
      } catch (error) {
        log.error({ ...context, err: error, text }, `${subject} (the e-mail to the owner could not be sent)`)
      }
    }
    await database.transaction(orgId, (q) =>
      endpoints.markSuspensionNotified(q, orgId, endpoint.id, endpoint.version, channel),
    )
  } catch (error) {
    log.error({ ...context, err: error }, 'the webhook suspension notice failed')
  }
}
