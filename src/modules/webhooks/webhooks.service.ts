import type { Runtime } from '../../platform/runtime.ts'
import { AddressPolicy } from './address-policy.ts'
import { createDeliveriesService } from './deliveries.service.ts'
import { createEndpointsService } from './endpoints.service.ts'

/** The webhooks module's use cases: endpoints (registration, rotation, tests, re-enabling) and deliveries. */
export function createWebhooksService(runtime: Runtime) {
  return {
    endpoints: createEndpointsService(new AddressPolicy(runtime.config.webhookAllowNetworks), runtime.secrets),
    deliveries: createDeliveriesService(),
  }
}

export type WebhooksService = ReturnType<typeof createWebhooksService>
