import { newId } from '../../platform/crypto/ids.ts'
import { rowBinding, type SecretBox } from '../../platform/crypto/secret-box.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import { API_VERSION, canonicalEvent, isSubscribableEvent } from '../../platform/events/catalog.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { recordAudit } from '../audit/index.ts'
import type { AddressPolicy } from './address-policy.ts'
import * as deliveries from './deliveries.repo.ts'
import { signalDeliveryQueued } from './delivery-signal.ts'
import * as repo from './endpoints.repo.ts'
import { newWebhookSecret, serializeEnvelope } from './signing.ts'
import { checkWebhookUrl } from './url-check.ts'
import { toDelivery, toEndpoint, type WebhookDelivery, type WebhookEndpoint } from './views.ts'
import { WebhookErrors } from './webhooks.errors.ts'
import type { CreateWebhookBody, EndpointListQuery, TestWebhookBody, WebhookChanges } from './webhooks.schemas.ts'

/** docs/decisions.md: the old secret keeps signing for 24 hours after a rotation. */
const ROTATION_GRACE_HOURS = 24

function checkEvents(events: readonly string[]): string[] {
  const seen = new Map<string, string>()
  events.forEach((name, i) => {
    if (!isSubscribableEvent(name))
      throw invalid(`events.${i}`, `"${name}" is not an event of the catalog`, 'unknown_event')
    const canonical = canonicalEvent(name)
    const earlier = seen.get(canonical)
    // An alias and its catalog name together would deliver every such event twice.
    if (earlier !== undefined)
      throw invalid(`events.${i}`, `"${name}" names the same event as "${earlier}"`, 'duplicate')
    seen.set(canonical, name)
  })
  return [...seen.values()]
}

/** `secrets` seals each signing secret at rest (SECRETS_KEY); the answer shows it once, unsealed. */
export function createEndpointsService(policy: AddressPolicy, secrets: SecretBox) {
  async function endpointOf(ctx: RequestContext, integrationId: string | undefined, webhookId: string) {
    const row = await ctx.db.read((q) => repo.endpointById(q, ctx.orgId, webhookId, integrationId))
    if (!row) throw notFound('webhook')
    return row
  }

  return {
    /** Registers an endpoint under an integration the caller has already found; the secret is returned once. */
    async register(
      ctx: RequestContext,
      integrationId: string,
      input: CreateWebhookBody,
    ): Promise<WebhookEndpoint & { secret: string }> {
      const events = checkEvents(input.events)
      // Resolving the host happens before the transaction: no network wait while holding a connection.
      const url = await checkWebhookUrl(input.url, policy)
      const secret = newWebhookSecret()
      const id = newId('wh')
      const row = await ctx.db.tx((q) =>
        repo.insertEndpoint(q, ctx.orgId, {
          id,
          integrationId,
          url,
          events,
          description: input.description?.trim() ?? '',
          secret: secrets.seal(secret, rowBinding(repo.WEBHOOK_SECRETS_TABLE, ctx.orgId, id)),
        }),
      )
      return { ...toEndpoint(row), secret }
    },

    async list(
      ctx: RequestContext,
      query: EndpointListQuery & { integrationId?: string },
    ): Promise<Page<WebhookEndpoint>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listEndpoints(q, ctx.orgId, {
          integrationId: query.integrationId,
          status: query.status,
          afterId: afterId ?? undefined,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toEndpoint)
    },

    async get(ctx: RequestContext, integrationId: string, webhookId: string): Promise<WebhookEndpoint> {
      return toEndpoint(await endpointOf(ctx, integrationId, webhookId))
    },

    /** A new secret signs from now on; the previous one signs alongside it for 24 hours. */
    async rotateSecret(
      ctx: RequestContext,
      integrationId: string,
      webhookId: string,
    ): Promise<WebhookEndpoint & { secret: string }> {
      const secret = newWebhookSecret()
      const row = await ctx.db.tx(async (q) => {
        const rotated = await repo.rotateSecret(
          q,
          ctx.orgId,
          webhookId,
          integrationId,
          secrets.seal(secret, rowBinding(repo.WEBHOOK_SECRETS_TABLE, ctx.orgId, webhookId)),
          ROTATION_GRACE_HOURS,
        )
        if (rotated)
          await recordAudit(q, ctx, {
            action: 'webhook.secret_rotated',
            record: { type: 'webhook', id: webhookId },
            changes: { integration_id: integrationId, previous_valid_hours: ROTATION_GRACE_HOURS },
          })
        return rotated
      })
      if (!row) throw notFound('webhook')
      return { ...toEndpoint(row), secret }
    },

    /**
     * Changes url, events or description; a new url is checked like at registration (before the transaction: no
     * DNS wait while holding a connection). `expectedVersion` mismatches are a 409.
     */
    async update(
      ctx: RequestContext,
      integrationId: string,
      webhookId: string,
      input: WebhookChanges,
      expectedVersion: number | undefined,
    ): Promise<WebhookEndpoint> {
      if (input.url === undefined && input.events === undefined && input.description === undefined)
        throw invalid('body', 'name at least one of url, events, description', 'required')
      const events = input.events === undefined ? undefined : checkEvents(input.events)
      const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url, policy)
      const description = input.description?.trim()
      const row = await ctx.db.tx(async (q) => {
        const updated = await repo.updateEndpoint(
          q,
          ctx.orgId,
          webhookId,
          integrationId,
          { url, events, description },
          expectedVersion,
        )
        if (updated) return updated
        const current = await repo.endpointById(q, ctx.orgId, webhookId, integrationId)
        if (!current) throw notFound('webhook')
        throw staleVersion(current.version)
      })
      return toEndpoint(row)
    },

    /**
     * Deletes endpoints (one, or all of an integration when `webhookId` is omitted): nothing more is delivered to
     * them, their queued deliveries end, and their delivery log stays. Joins the caller's transaction.
     */
    async remove(ctx: RequestContext, integrationId: string, webhookId?: string): Promise<string[]> {
      return ctx.db.tx(async (q) => {
        const ids = await repo.deleteEndpoints(q, ctx.orgId, { integrationId, id: webhookId })
        if (webhookId !== undefined && ids.length === 0) throw notFound('webhook')
        await deliveries.cancelPending(q, ctx.orgId, ids)
        return ids
      })
    },

    /** Re-enables a suspended endpoint: the failure count restarts and held deliveries go out again. */
    async enable(ctx: RequestContext, webhookId: string): Promise<WebhookEndpoint> {
      const row = await ctx.db.tx(async (q) => {
        const resumed = await repo.enableEndpoint(q, ctx.orgId, webhookId)
        // Enabling an endpoint that is not suspended changes nothing and records nothing.
        if (!resumed) return repo.endpointById(q, ctx.orgId, webhookId)
        await recordAudit(q, ctx, { action: 'webhook.resumed', record: { type: 'webhook', id: webhookId } })
        return resumed
      })
      if (!row) throw notFound('webhook')
      signalDeliveryQueued()
      return toEndpoint(row)
    },

    /** For other modules: whether the endpoint is one of this org's (not deleted). */
    async exists(ctx: RequestContext, webhookId: string): Promise<boolean> {
      return (await ctx.db.read((q) => repo.endpointById(q, ctx.orgId, webhookId))) !== undefined
    },

    /**
     * Queues a signed delivery of an event envelope to one endpoint of the org, whatever its subscriptions (an
     * automation's "send a webhook" action): retried and logged like every delivery. Joins the caller's
     * transaction, so the delivery exists exactly when the caller's work commits.
     */
    async sendEvent(
      ctx: RequestContext,
      input: { webhookId: string; event: string; data: object },
    ): Promise<WebhookDelivery> {
      const endpoint = await endpointOf(ctx, undefined, input.webhookId)
      return queueOne(ctx, endpoint.id, input.event, () => input.data, false)
    },

    /**
     * Queues a signed synthetic payload of `event` for one attempt, also to a suspended endpoint (to check a fix
     * before re-enabling). The answer is the queued delivery; its attempt shows in the delivery log.
     */
    async sendTest(ctx: RequestContext, integrationId: string, input: TestWebhookBody): Promise<WebhookDelivery> {
      if (!isSubscribableEvent(input.event))
        throw invalid('event', `"${input.event}" is not an event of the catalog`, 'unknown_event')
      const endpoint = await endpointOf(ctx, integrationId, input.webhookId)
      return queueOne(
        ctx,
        endpoint.id,
        input.event,
        (id) => ({
          id: `test_${id.slice(4)}`,
          test: true,
          description: `A synthetic ${input.event} payload sent by the webhook test endpoint`,
        }),
        true,
      )
    },
  }
}

/**
 * Queues one signed delivery to one endpoint outside the relay (a test payload, an automation's webhook), in the
 * caller's transaction when there is one, and wakes this process's worker.
 */
async function queueOne(
  ctx: RequestContext,
  endpointId: string,
  event: string,
  dataFor: (deliveryId: string) => object,
  isTest: boolean,
): Promise<WebhookDelivery> {
  const id = newId('msg')
  const payload = serializeEnvelope({
    id,
    event,
    orgId: ctx.orgId,
    timestamp: new Date().toISOString(),
    apiVersion: API_VERSION,
    data: dataFor(id),
  })
  const row = await ctx.db.tx(async (q) => {
    await deliveries.insertDeliveries(q, [{ id, orgId: ctx.orgId, endpointId, eventId: null, event, payload, isTest }])
    return deliveries.deliveryById(q, ctx.orgId, id)
  })
  if (!row) throw WebhookErrors.DELIVERY_NOT_QUEUED('the delivery could not be queued')
  signalDeliveryQueued()
  return toDelivery(row)
}
