import type { FastifyInstance, FastifyReply } from 'fastify'
import type { WebSession } from '../modules/oauth/index.ts'
import type { WebhookDelivery, WebhookEndpoint } from '../modules/webhooks/index.ts'
import { AppError } from '../platform/errors/app-error.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { type Html, hidden, html, page } from './html.ts'
import { type Form, managerGuard, signOutForm } from './manager-guard.ts'

const when = (d: Date | string) => `${new Date(d).toISOString().replace('T', ' ').slice(0, 16)} UTC`

/** How many rows each table shows; the API pages through the rest. */
const SHOWN = { endpoints: 100, failed: 100, attempts: 50 }

/** Outcomes a form post reports back through the redirect: fixed texts, never echoed input. */
const NOTICES: Record<string, (count: number) => string> = {
  replayed: () => 'The event was queued again with the same id and body. Watch the attempts below.',
  replayed_all: (n) => (n === 1 ? '1 failed event was queued again.' : `${n} failed events were queued again.`),
  enabled: () => 'The endpoint is active again; its held deliveries resume.',
}
const ERRORS: Record<string, string> = {
  conflict:
    'That event cannot be replayed now: its endpoint is suspended (re-enable it first) or it is no longer failed.',
  not_found: 'No such failed event or endpoint in your store (failed events are kept 72 hours).',
}

type Query = { done?: string; count?: string; error?: string }

function banner(query: Query): Html | string {
  const notice = typeof query.done === 'string' && Object.hasOwn(NOTICES, query.done) ? NOTICES[query.done] : undefined
  if (notice) return html`<p class="notice" role="status">${notice(Number.parseInt(query.count ?? '0', 10) || 0)}</p>`
  const error = typeof query.error === 'string' && Object.hasOwn(ERRORS, query.error) ? ERRORS[query.error] : undefined
  return error ? html`<p class="error" role="alert">${error}</p>` : ''
}

function button(session: WebSession, action: string, label: string, accessibleName: string): Html {
  return html`<form method="post" action="${action}">${hidden('csrf', session.csrfToken)}<button type="submit" aria-label="${accessibleName}">${label}</button></form>`
}

function notifiedText(e: WebhookEndpoint): string {
  if (e.suspension_notified_by === 'email' && e.suspension_notified_at)
    return `The store owner was e-mailed at ${when(e.suspension_notified_at)}.`
  if (e.suspension_notified_by === 'log')
    return 'No e-mail could be sent (SMTP is not configured or refused it): this page and the server log carry the notice.'
  return ''
}

function suspensionNotices(session: WebSession, endpoints: WebhookEndpoint[]): Html[] {
  return endpoints
    .filter((e) => e.status === 'suspended')
    .map(
      (e) => html`<div class="error" role="alert"><p><strong>Deliveries to <code>${e.url}</code> are suspended</strong>
since ${e.suspended_at ? when(e.suspended_at) : 'recently'}: ${e.suspension_reason ?? 'too many failed events'}.
New events are not queued for it meanwhile. ${notifiedText(e)} Fix the receiver, then re-enable it and replay the failed events.</p>
${button(session, `/dashboard/webhooks/endpoints/${e.id}/enable`, 'Re-enable', `Re-enable ${e.url}`)}</div>`,
    )
}

function endpointsTable(session: WebSession, endpoints: WebhookEndpoint[]): Html {
  if (endpoints.length === 0)
    return html`<p>No webhook endpoints yet. Integrations register them with <code>POST /api/v1/integrations/:id/webhooks</code>.</p>`
  return html`<table><caption>Webhook endpoints of your store</caption><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Since</th><th scope="col"><span>Action</span></th></tr></thead><tbody>
${endpoints.map(
  (
    e,
  ) => html`<tr><td><code>${e.url}</code>${e.description ? html`<br>${e.description}` : ''}</td><td>${e.events.join(', ')}</td>
<td>${e.status === 'suspended' ? html`<strong>suspended</strong><br>${e.suspension_reason ?? ''}` : 'active'}${e.consecutive_failures > 0 && e.status === 'active' ? html`<br>${e.consecutive_failures} failed in a row` : ''}</td>
<td>${when(e.status === 'suspended' && e.suspended_at ? e.suspended_at : e.created_at)}</td>
<td>${e.status === 'suspended' ? button(session, `/dashboard/webhooks/endpoints/${e.id}/enable`, 'Re-enable', `Re-enable ${e.url}`) : ''}</td></tr>`,
)}
</tbody></table>`
}

function failedTable(session: WebSession, failed: WebhookDelivery[], byId: Map<string, WebhookEndpoint>): Html {
  if (failed.length === 0) return html`<p>No failed events in the last 72 hours.</p>`
  return html`${button(session, '/dashboard/webhooks/failed/replay', 'Replay all', 'Replay all failed events')}
<table><caption>Failed events, replayable for 72 hours</caption><thead><tr><th scope="col">Event</th><th scope="col">Endpoint</th><th scope="col">Failed</th><th scope="col">Last result</th><th scope="col"><span>Action</span></th></tr></thead><tbody>
${failed.map((d) => {
  const endpoint = byId.get(d.webhook_id)
  return html`<tr><td>${d.event}<br><code>${d.id}</code></td><td><code>${endpoint?.url ?? d.webhook_id}</code></td>
<td>${d.failed_at ? when(d.failed_at) : ''}<br>${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.replayable_until ? html`<br>replayable until ${when(d.replayable_until)}` : ''}</td>
<td>${d.last_status_code ?? 'no answer'}${d.last_error ? html`<br>${d.last_error}` : ''}</td>
<td>${endpoint?.status === 'suspended' ? 'Re-enable the endpoint first' : button(session, `/dashboard/webhooks/failed/${d.id}/replay`, 'Replay', `Replay ${d.event} ${d.id}`)}</td></tr>`
})}
</tbody></table>`
}

type Attempt = Awaited<ReturnType<Services['webhooks']['deliveries']['listAttempts']>>['data'][number]

function attemptsTable(attempts: Attempt[]): Html {
  if (attempts.length === 0) return html`<p>No delivery attempts yet.</p>`
  return html`<table><caption>The ${SHOWN.attempts} most recent delivery attempts</caption><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">URL</th><th scope="col">Result</th><th scope="col">Latency</th><th scope="col">Error</th></tr></thead><tbody>
${attempts.map(
  (
    a,
  ) => html`<tr><td>${when(a.created_at)}</td><td>${a.event}<br><code>${a.delivery_id}</code> #${a.attempt}</td><td><code>${a.url}</code></td>
<td>${a.succeeded ? 'delivered' : 'failed'}, ${a.status_code ?? 'no answer'}</td><td>${a.latency_ms} ms</td><td>${a.error ?? ''}</td></tr>`,
)}
</tbody></table>`
}

/**
 * `/dashboard/webhooks`: the org's endpoints with their status, the owner's suspension notices with a Re-enable
 * button, failed events (72 h) with Replay and Replay all, and the latest delivery attempts. Everything goes
 * through the webhooks module's services, as an API call of the signed-in owner would.
 */
export async function webhooksPages(
  app: FastifyInstance,
  { runtime, services }: { runtime: Runtime; services: Services },
) {
  const guard = managerGuard(runtime.database, services)
  const { endpoints, deliveries } = services.webhooks

  async function webhooksPage(ctx: RequestContext, session: WebSession, query: Query): Promise<string> {
    const [endpointPage, failedPage, attemptPage] = await Promise.all([
      endpoints.list(ctx, { limit: SHOWN.endpoints }),
      deliveries.listFailed(ctx, { limit: SHOWN.failed }),
      deliveries.listAttempts(ctx, { limit: SHOWN.attempts }),
    ])
    const byId = new Map(endpointPage.data.map((e) => [e.id, e]))
    return page(
      'Webhooks',
      html`${signOutForm(session)}<h1>Webhooks</h1>
${banner(query)}
${suspensionNotices(session, endpointPage.data)}
<h2>Endpoints</h2>
${endpointsTable(session, endpointPage.data)}
<h2>Failed events</h2>
${failedTable(session, failedPage.data, byId)}
<h2>Recent delivery attempts</h2>
${attemptsTable(attemptPage.data)}`,
      { nav: true },
    )
  }

  const back = (reply: FastifyReply, outcome: Record<string, string>) =>
    reply
      .code(303)
      .header('location', `/dashboard/webhooks?${new URLSearchParams(outcome)}`)
      .send()

  /** Runs a form's action and sends the browser back to the page with its outcome. */
  async function act(reply: FastifyReply, action: () => Promise<Record<string, string>>) {
    try {
      return back(reply, await action())
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return back(reply, { error: 'not_found' })
      if (error instanceof AppError && error.status === 409) return back(reply, { error: 'conflict' })
      throw error
    }
  }

  app.get<{ Querystring: Query }>('/dashboard/webhooks', async (request, reply) => {
    const who = await guard(request, reply, false)
    if (!who) return reply
    return reply.type('text/html; charset=utf-8').send(await webhooksPage(who.ctx, who.session, request.query))
  })

  app.post<{ Params: { deliveryId: string }; Body: Form }>(
    '/dashboard/webhooks/failed/:deliveryId/replay',
    async (request, reply) => {
      const who = await guard(request, reply, true)
      if (!who) return reply
      return act(reply, async () => {
        await deliveries.replay(who.ctx, request.params.deliveryId)
        return { done: 'replayed' }
      })
    },
  )

  app.post<{ Body: Form }>('/dashboard/webhooks/failed/replay', async (request, reply) => {
    const who = await guard(request, reply, true)
    if (!who) return reply
    return act(reply, async () => {
      const { replayed } = await deliveries.replayAll(who.ctx, {})
      return { done: 'replayed_all', count: String(replayed) }
    })
  })

  app.post<{ Params: { webhookId: string }; Body: Form }>(
    '/dashboard/webhooks/endpoints/:webhookId/enable',
    async (request, reply) => {
      const who = await guard(request, reply, true)
      if (!who) return reply
      return act(reply, async () => {
        await endpoints.enable(who.ctx, request.params.webhookId)
        return { done: 'enabled' }
      })
    },
  )
}
