import { notFound } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { recordAudit } from '../audit/index.ts'
import * as repo from './deliveries.repo.ts'
import { signalDeliveryQueued } from './delivery-signal.ts'
import * as endpoints from './endpoints.repo.ts'
import { toAttempt, toDelivery, type WebhookAttempt, type WebhookDelivery } from './views.ts'
import { WebhookErrors } from './webhooks.errors.ts'
import type { AttemptListQuery, BulkReplayBody, BulkReplayResult, FailedListQuery } from './webhooks.schemas.ts'

const REPLAY_WINDOW_MS = 72 * 3_600_000

/** The delivery log, failed events and their replay. */
export function createDeliveriesService() {
  return {
    /** An erasure on request: the deliveries about the customer carry only its id. */
    erasePayloads(ctx: RequestContext, customerId: string, eventIds: readonly string[]): Promise<void> {
      return ctx.db.tx((q) => repo.erasePayloads(q, ctx.orgId, customerId, eventIds))
    },

    async listAttempts(ctx: RequestContext, query: AttemptListQuery): Promise<Page<WebhookAttempt>> {
      const beforeId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listAttempts(q, ctx.orgId, {
          endpointId: query.webhook_id,
          deliveryId: query.delivery_id,
          event: query.event,
          succeeded: query.succeeded,
          beforeId: beforeId ?? undefined,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toAttempt)
    },

    async listFailed(ctx: RequestContext, query: FailedListQuery): Promise<Page<WebhookDelivery>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listFailed(q, ctx.orgId, {
          endpointId: query.webhook_id,
          afterId: afterId ?? undefined,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toDelivery)
    },

    /** Sends a failed event again with the same id and bytes, on a fresh retry schedule. */
    async replay(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
      const row = await ctx.db.tx(async (q) => {
        const current = await repo.deliveryById(q, ctx.orgId, deliveryId)
        if (!current || current.is_test) throw notFound('failed webhook delivery')
        if (current.status !== 'failed')
          throw WebhookErrors.DELIVERY_NOT_FAILED(
            `the delivery is ${current.status}; only failed deliveries are replayed`,
          )
        if (!current.failed_at || Date.now() - current.failed_at.getTime() > REPLAY_WINDOW_MS)
          throw notFound('failed webhook delivery')
        const endpoint = await endpoints.endpointById(q, ctx.orgId, current.endpoint_id)
        if (endpoint?.status !== 'active')
          throw WebhookErrors.ENDPOINT_SUSPENDED('the webhook endpoint is suspended; re-enable it first')
        const [replayed] = await repo.replayFailed(q, ctx.orgId, { id: deliveryId })
        if (!replayed) throw notFound('failed webhook delivery')
        await recordAudit(q, ctx, {
          action: 'webhook.event_replayed',
          record: { type: 'webhook', id: replayed.endpoint_id },
          changes: { delivery_id: replayed.id, event: replayed.event },
        })
        return replayed
      })
      signalDeliveryQueued()
      return toDelivery(row)
    },

    /** Replays every replayable failed event of the org, or of one endpoint; suspended endpoints are skipped. */
    async replayAll(ctx: RequestContext, filter: BulkReplayBody): Promise<BulkReplayResult['data']> {
      const rows = await ctx.db.tx(async (q) => {
        if (filter.webhook_id && !(await endpoints.endpointById(q, ctx.orgId, filter.webhook_id)))
          throw notFound('webhook')
        const replayed = await repo.replayFailed(q, ctx.orgId, { endpointId: filter.webhook_id })
        // One entry per endpoint, with how many of its events went again.
        const perEndpoint = new Map<string, number>()
        for (const r of replayed) perEndpoint.set(r.endpoint_id, (perEndpoint.get(r.endpoint_id) ?? 0) + 1)
        for (const [endpointId, count] of perEndpoint)
          await recordAudit(q, ctx, {
            action: 'webhook.events_replayed',
            record: { type: 'webhook', id: endpointId },
            changes: { count },
          })
        return replayed
      })
      if (rows.length > 0) signalDeliveryQueued()
      return { replayed: rows.length, ids: rows.map((r) => r.id) }
    },
  }
}
