import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp } from '../../platform/http/schemas.ts'

const tenantFields = {
  id: Type.String({ description: 'ptn_… identifier of the provisioning record' }),
  org_id: Type.String({ description: 'the tenant org; use it as org_id in client credentials' }),
  name: Type.String(),
  plan: Type.String(),
  currency: Type.String(),
  owner_email: Type.String(),
  client_id: Type.String({ description: 'the partner app connected to the tenant' }),
  grant_id: Type.String({ description: 'the connection grant' }),
  scopes: Type.Array(Type.String(), { description: 'what the partner app may do in the tenant' }),
  created_at: Timestamp,
}

export const TenantSchema = Type.Object(tenantFields, { $id: 'PartnerTenant' })
/** The service hands out Date timestamps; the serializer writes the ISO strings the schema declares. */
export type Tenant = Dated<Static<typeof TenantSchema>, 'created_at'>

/** The answer to provisioning: the tenant and, this once, the owner's invitation link. */
export const CreatedTenantSchema = Type.Object(
  {
    ...tenantFields,
    invitation: Type.Object({
      url: Type.String({ description: 'one-time link for the owner to set a password; shown only here' }),
      expires_at: Timestamp,
    }),
  },
  { $id: 'PartnerTenantCreated' },
)
export type Invitation = Omit<Static<typeof CreatedTenantSchema>['invitation'], 'expires_at'> & { expires_at: Date }

export const CreateTenantBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    owner_email: Type.String({ format: 'email', maxLength: 320 }),
    owner_name: Type.Optional(Type.String({ maxLength: 200 })),
    plan: Type.Optional(
      Type.Union([Type.Literal('starter'), Type.Literal('growth'), Type.Literal('pro'), Type.Literal('enterprise')]),
    ),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217; default USD' })),
    scopes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: 30,
        description: 'what the partner app may do in the tenant; default: every scope the app is allowed',
      }),
    ),
  },
  { additionalProperties: false },
)
export type CreateTenantBody = Static<typeof CreateTenantBody>

export const TenantListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type TenantListQuery = Static<typeof TenantListQuery>
