/** Outbound webhooks: endpoints, signed deliveries from the outbox, the delivery log, replay. */

export { resealWebhookSecrets } from './reseal.ts'
export type { WebhookDelivery, WebhookEndpoint } from './views.ts'
export {
  startWebhookWorker,
  type WebhookWorker,
} from './webhooks.jobs.ts'
export { webhooksRoutes } from './webhooks.routes.ts'
export {
  CreateWebhookBody,
  TestWebhookBody,
  UpdateWebhookBody,
  type WebhookChanges,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookParams,
} from './webhooks.schemas.ts'
export { createWebhooksService, type WebhooksService } from './webhooks.service.ts'
