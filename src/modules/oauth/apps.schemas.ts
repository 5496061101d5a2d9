import { type Static, Type } from 'typebox'
import { PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Name = Type.String({ minLength: 1, maxLength: 100 })
const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
  minItems: 1,
  maxItems: 10,
  description: 'https, or http on 127.0.0.1 for native apps',
})
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 50,
  uniqueItems: true,
  description: 'the scopes the app may ask a store for; none until given',
})

export const AppSchema = Type.Object(
  {
    client_id: Type.String(),
    name: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    allowed_scopes: Type.Array(Type.String()),
    client_type: Type.Union([Type.Literal('confidential'), Type.Literal('public')]),
    partner: Type.Boolean({ description: 'granted by the platform’s operator, never here' }),
    partner_plans: Type.Array(Type.String()),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'App', description: 'an OAuth app the store registered; its secret is never shown again' },
)

export const CreateAppBody = Type.Object(
  {
    name: Name,
    redirect_uris: RedirectUris,
    allowed_scopes: Type.Optional(Scopes),
    client_type: Type.Optional(
      Type.Union([Type.Literal('confidential'), Type.Literal('public')], {
        description: 'confidential (default): a server that keeps a secret; public: PKCE, no secret',
      }),
    ),
  },
  { additionalProperties: false },
)
export type CreateAppBody = Static<typeof CreateAppBody>

export const UpdateAppBody = Type.Object(
  { name: Type.Optional(Name), redirect_uris: Type.Optional(RedirectUris), allowed_scopes: Type.Optional(Scopes) },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateAppBody = Static<typeof UpdateAppBody>

export const AppListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const ClientIdParams = Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 100 }) })

/** An app's answer with its secret, the one time it is shown (registration, rotation). */
export const AppWithSecret = Type.Object({
  data: Type.Ref('App'),
  client_secret: Type.Union([Type.String(), Type.Null()], {
    description: 'shown this once and stored hashed; null for a public app',
  }),
})

export const ConnectedAppSchema = Type.Object(
  {
    client_id: Type.String(),
    name: Type.String(),
    partner: Type.Boolean({ description: 'a partner app (it may have set the store up)' }),
    scopes: Type.Array(Type.String()),
    connected_at: Timestamp,
    last_used_at: Timestamp,
  },
  { $id: 'ConnectedApp', description: 'an app the store has let in' },
)
