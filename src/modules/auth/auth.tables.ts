/** Row types and column lists of the login tables, once each. */
import type { Role } from '../../platform/http/context.ts'

/** users (db/migrations/0001_platform.sql). */
export interface UserRow {
  id: string
  org_id: string
  email: string
  name: string
  role: Role
  password_hash: string | null
  /** Deactivated users sign in nowhere and their rules stop (db/migrations/0134). */
  deactivated: boolean
  created_at: Date
}

export const userColumns =
  'id, org_id, email, name, role, password_hash, deactivated_at IS NOT NULL AS deactivated, created_at'

/** refresh_tokens with its auth_sessions row (db/migrations/0001_platform.sql); expiry, use, revocation as flags. */
export interface RefreshRow {
  session_id: string
  user_id: string
  scopes: string[]
  expired: boolean
  used: boolean
  revoked: boolean
}
