import type { Static } from 'typebox'
import { newId } from '../../platform/crypto/ids.ts'
import { invalid, notFound } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import type { Dated } from '../../platform/http/schemas.ts'
import type {
  CreateWebhookBody,
  TestWebhookBody,
  WebhookChanges,
  WebhookDelivery,
  WebhookEndpoint,
  WebhooksService,
} from '../webhooks/index.ts'
import * as repo from './integrations.repo.ts'
import type {
  CreateIntegrationBody,
  IntegrationListQuery,
  IntegrationSchema,
  WebhookListQuery,
} from './integrations.schemas.ts'
import type { IntegrationRow } from './integrations.tables.ts'

/** An integration as the API shows it: its row without the tenant column. */
type Integration = Dated<Static<typeof IntegrationSchema>, 'created_at' | 'updated_at'>

function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    config: row.config,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** A config is stored and shown as given: it stays small so lists stay fast. */
const MAX_CONFIG_BYTES = 16 * 1024

/** Installed integrations, and the webhook endpoints registered under them. */
export function createIntegrationsService(webhooks: WebhooksService) {
  async function existing(ctx: RequestContext, id: string): Promise<Integration> {
    const row = await ctx.db.read((q) => repo.integrationById(q, ctx.orgId, id))
    if (!row) throw notFound('integration')
    return toIntegration(row)
  }

  return {
    async install(ctx: RequestContext, input: CreateIntegrationBody): Promise<Integration> {
      const name = input.name.trim()
      if (!name) throw invalid('name', 'must not be blank', 'required')
      const config = input.config ?? {}
      if (Buffer.byteLength(JSON.stringify(config)) > MAX_CONFIG_BYTES)
        throw invalid('config', `must be at most ${MAX_CONFIG_BYTES} bytes of JSON`, 'out_of_range')
      const row = await ctx.db.tx((q) =>
        repo.insertIntegration(q, ctx.orgId, { id: newId('int'), name, type: input.type, config }),
      )
      return toIntegration(row)
    },

    async list(ctx: RequestContext, query: IntegrationListQuery): Promise<Page<Integration>> {
      const afterId = afterIdOf(query.cursor)
      const rows = await ctx.db.read((q) =>
        repo.listIntegrations(q, ctx.orgId, {
          afterId: afterId ?? undefined,
          type: query.type,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toIntegration)
    },

    get: existing,

    async registerWebhook(
      ctx: RequestContext,
      integrationId: string,
      input: CreateWebhookBody,
    ): Promise<WebhookEndpoint & { secret: string }> {
      await existing(ctx, integrationId)
      return webhooks.endpoints.register(ctx, integrationId, input)
    },

    async listWebhooks(
      ctx: RequestContext,
      integrationId: string,
      query: WebhookListQuery,
    ): Promise<Page<WebhookEndpoint>> {
      await existing(ctx, integrationId)
      return webhooks.endpoints.list(ctx, { ...query, integrationId })
    },

    async getWebhook(ctx: RequestContext, integrationId: string, webhookId: string): Promise<WebhookEndpoint> {
      await existing(ctx, integrationId)
      return webhooks.endpoints.get(ctx, integrationId, webhookId)
    },

    async updateWebhook(
      ctx: RequestContext,
      integrationId: string,
      webhookId: string,
      input: WebhookChanges,
      expectedVersion: number | undefined,
    ): Promise<WebhookEndpoint> {
      await existing(ctx, integrationId)
      return webhooks.endpoints.update(ctx, integrationId, webhookId, input, expectedVersion)
    },

    /** Stops deliveries to one endpoint for good; its delivery log stays readable. */
    async deleteWebhook(ctx: RequestContext, integrationId: string, webhookId: string): Promise<void> {
      await existing(ctx, integrationId)
      await webhooks.endpoints.remove(ctx, integrationId, webhookId)
    },

    /** Uninstalls an integration: it disappears from the API and every endpoint of it stops receiving. */
    async uninstall(ctx: RequestContext, integrationId: string): Promise<void> {
      await ctx.db.tx(async (q) => {
        if (!(await repo.uninstallIntegration(q, ctx.orgId, integrationId))) throw notFound('integration')
        await webhooks.endpoints.remove(ctx, integrationId)
      })
    },

    async rotateWebhookSecret(
      ctx: RequestContext,
      integrationId: string,
      webhookId: string,
    ): Promise<WebhookEndpoint & { secret: string }> {
      await existing(ctx, integrationId)
      return webhooks.endpoints.rotateSecret(ctx, integrationId, webhookId)
    },

    async testWebhook(ctx: RequestContext, integrationId: string, input: TestWebhookBody): Promise<WebhookDelivery> {
      await existing(ctx, integrationId)
      return webhooks.endpoints.sendTest(ctx, integrationId, input)
    },
  }
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>
