import type { InvitationRow, UserRow } from './auth.tables.ts'
import type { Invitation, User } from './users.schemas.ts'

/** A user as the API shows it (never the password hash). */
export function userResource(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.deactivated ? 'deactivated' : 'active',
    has_pin: row.pin_hash !== null,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function invitationResource(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.expired ? 'expired' : 'pending',
    invited_by: row.invited_by,
    expires_at: row.expires_at,
    created_at: row.created_at,
  }
}
