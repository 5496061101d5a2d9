/** Row types and column lists of the OAuth tables, once each. */

/** oauth_apps (db/migrations/0020_oauth.sql; partner_plans: 0021_partner_plans.sql). */
export interface AppRow {
  id: string
  org_id: string
  name: string
  redirect_uris: string[]
  allowed_scopes: string[]
  confidential: boolean
  partner: boolean
  partner_plans: string[]
  secret_hash: string | null
  version: number
  created_at: Date
  updated_at: Date
}

export const appColumns =
  'id, org_id, name, redirect_uris, allowed_scopes, confidential, partner, partner_plans, secret_hash, version, created_at, updated_at'

export type GrantKind = 'authorization_code' | 'connection' | 'client_credentials'

/** oauth_grants (db/migrations/0020_oauth.sql). */
export interface GrantRow {
  id: string
  org_id: string
  client_id: string
  kind: GrantKind
  user_id: string | null
  scopes: string[]
  parent_id: string | null
  created_at: Date
  last_used_at: Date
  revoked_at: Date | null
  revoked_reason: string | null
}

export const grantColumns =
  'id, org_id, client_id, kind, user_id, scopes, parent_id, created_at, last_used_at, revoked_at, revoked_reason'

/** A row of oauth_connections_of_client() (db/migrations/0020_oauth.sql): a live partner connection. */
export interface ConnectionRow {
  org_id: string
  grant_id: string
  scopes: string[]
  created_at: Date
}

/** oauth_codes (db/migrations/0020_oauth.sql), with expiry and use read as flags. */
export interface CodeRow {
  org_id: string
  client_id: string
  user_id: string
  scopes: string[]
  redirect_uri: string
  code_challenge: string | null
  expired: boolean
  used: boolean
  grant_id: string | null
}

/** oauth_refresh_tokens (db/migrations/0020_oauth.sql) with its grant, expiry, use and revocation as flags. */
export interface RefreshRow {
  grant_id: string
  client_id: string
  user_id: string | null
  scopes: string[]
  grant_created_at: Date
  expired: boolean
  used: boolean
  revoked: boolean
}

/** web_sessions (db/migrations/0020_oauth.sql). */
export interface WebSessionRow {
  org_id: string
  user_id: string
  user_email: string
  scopes: string[]
  csrf_token: string
  api_session_id: string | null
}
