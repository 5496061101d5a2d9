import { createError } from '../../platform/errors/codes.ts'

/** The webhooks module's error codes (docs/api-conventions.md "Error codes"). */
export const WebhookErrors = {
  DELIVERY_NOT_FAILED: createError('DELIVERY_NOT_FAILED', 'conflict'),
  ENDPOINT_SUSPENDED: createError('WEBHOOK_SUSPENDED', 'conflict'),
  DELIVERY_NOT_QUEUED: createError('DELIVERY_NOT_QUEUED', 'conflict'),
} as const
