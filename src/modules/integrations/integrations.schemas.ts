import { type Static, Type } from 'typebox'
import { PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const IntegrationType = Type.String({
  pattern: '^[a-z0-9][a-z0-9_.-]{0,49}$',
  description: 'what the integration is, e.g. accounting, ecommerce, custom (lower case)',
})

export const IntegrationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    config: Type.Record(Type.String(), Type.Unknown()),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Integration' },
)

export const CreateIntegrationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: IntegrationType,
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'settings of the integration, free-form JSON' }),
    ),
  },
  { additionalProperties: false },
)
export type CreateIntegrationBody = Static<typeof CreateIntegrationBody>

export const IntegrationListQuery = Type.Object(
  { ...PageQuery, type: Type.Optional(IntegrationType) },
  { additionalProperties: false },
)
export type IntegrationListQuery = Static<typeof IntegrationListQuery>

export const WebhookListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type WebhookListQuery = Static<typeof WebhookListQuery>
