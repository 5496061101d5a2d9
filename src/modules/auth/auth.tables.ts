/** Row types and column lists of the login tables, once each. */
import type { Role } from '../../platform/http/context.ts'

/** users (db/migrations/0001_platform.sql). */
export interface UserRow {
  id: string
  org_id: string
  email: string
  name: string
  role: Role
  /** The person who signs in as this user (db/migrations/0144_people.sql): one password, several orgs. */
  person_id: string | null
  /** Deactivated users sign in nowhere and their rules stop (db/migrations/0134). */
  deactivated: boolean
  /** argon2id of the user's till PIN (db/migrations/0140), or null. */
  pin_hash: string | null
  version: number
  created_at: Date
  updated_at: Date
}

export const userColumns =
  'id, org_id, email, name, role, person_id, deactivated_at IS NOT NULL AS deactivated, pin_hash, version, created_at, updated_at'

/** The account an invitation makes when it is accepted (its email, name and role columns). */
export interface Invitee {
  email: string
  name: string
  role: Role
}

/**
 * invitations (db/migrations/0061_partners.sql; the invitee's columns: 0128_invitations_by_email.sql; revocation
 * and inviter: 0139_people_and_settings.sql).
 */
export interface InvitationRow extends Invitee {
  id: string
  org_id: string
  invited_by: string | null
  expires_at: Date
  created_at: Date
  expired: boolean
  accepted: boolean
  revoked: boolean
}

export const invitationColumns = `id, org_id, email, name, role, invited_by, expires_at, created_at,
  expires_at <= now() AS expired, accepted_at IS NOT NULL AS accepted, revoked_at IS NOT NULL AS revoked`

/** refresh_tokens with its auth_sessions row (db/migrations/0001_platform.sql); expiry, use, revocation as flags. */
export interface RefreshRow {
  session_id: string
  user_id: string
  register_id: string | null
  expired: boolean
  used: boolean
  revoked: boolean
}

/** A person (people, db/migrations/0144_people.sql), read only through the auth_person_* functions. */
export interface PersonRow {
  id: string
  email: string
  password_hash: string
}

/** One org a person belongs to (auth_memberships). */
export interface MembershipRow {
  org_id: string
  org_name: string
  user_id: string
  active: boolean
}
