import { type Static, Type } from 'typebox'

/** RFC 6749 §5.2 error body of the protocol endpoints. */
const OAuthErrorSchema = Type.Object({ error: Type.String(), error_description: Type.Optional(Type.String()) })

export const oauthErrors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, OAuthErrorSchema]))

const param = (description: string) => Type.Optional(Type.String({ maxLength: 4096, description }))

/**
 * Every parameter any grant reads. RFC 6749 §3.2 makes the server ignore parameters it does not recognise, so
 * unlike REST bodies this one admits others (and drops them); each grant reads only its own allowlist.
 */
export const TokenBody = Type.Object(
  {
    grant_type: Type.String({ maxLength: 100, description: 'authorization_code, refresh_token or client_credentials' }),
    code: param('authorization_code: the code from the authorization response'),
    redirect_uri: param('authorization_code: the redirect_uri of the authorization request'),
    code_verifier: param('authorization_code: the PKCE verifier (RFC 7636)'),
    refresh_token: param('refresh_token: the latest refresh token'),
    scope: param('refresh_token, client_credentials: a narrower space-separated scope'),
    org_id: param('client_credentials: a tenant org the partner app is connected to'),
    client_id: param('the client id, unless sent with HTTP Basic'),
    client_secret: param('the client secret of a confidential client, unless sent with HTTP Basic'),
  },
  { additionalProperties: true },
)
export type TokenBody = Static<typeof TokenBody>

/** SPEC (docs/decisions.md) "Token response": RFC 6749 §5.1 plus `org_id`. */
export const TokenResponseSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  refresh_token: Type.Optional(Type.String()),
  scope: Type.String(),
  org_id: Type.String(),
})
export type TokenResponse = Static<typeof TokenResponseSchema>

export const TokenActionBody = Type.Object(
  {
    token: Type.String({ maxLength: 4096, description: 'an access token or a refresh token' }),
    token_type_hint: param('access_token or refresh_token'),
    client_id: param('the client id, unless sent with HTTP Basic'),
    client_secret: param('the client secret of a confidential client, unless sent with HTTP Basic'),
  },
  { additionalProperties: true },
)
export type TokenActionBody = Static<typeof TokenActionBody>

/** RFC 7662 §2.2. */
export const IntrospectionSchema = Type.Object({
  active: Type.Boolean(),
  scope: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.String()),
  exp: Type.Optional(Type.Integer()),
  sub: Type.Optional(Type.String()),
  aud: Type.Optional(Type.String()),
  iss: Type.Optional(Type.String()),
  org_id: Type.Optional(Type.String()),
})
export type Introspection = Static<typeof IntrospectionSchema>

/** Parameters sent without a value are treated as omitted (RFC 6749 §3.1, §3.2). */
export function withoutEmpty<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '' && v !== undefined)) as T
}
