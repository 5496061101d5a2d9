/** Row types and column lists of the partner tables, once each. */
import type { Role } from '../../platform/http/context.ts'

/** partner_tenants (db/migrations/0061_partners.sql). */
export interface TenantRow {
  id: string
  org_id: string
  client_id: string
  tenant_org_id: string
  grant_id: string
  name: string
  plan: string
  currency: string
  owner_email: string
  scopes: string[]
  created_at: Date
}

export const tenantColumns =
  'id, org_id, client_id, tenant_org_id, grant_id, name, plan, currency, owner_email, scopes, created_at'

/** The account an invitation makes when it is accepted (its email, name and role columns). */
export interface Invitee {
  email: string
  name: string
  role: Role
}

/** invitations (db/migrations/0061_partners.sql; the invitee's columns: 0128_invitations_by_email.sql). */
export interface InvitationRow extends Invitee {
  id: string
  org_id: string
  expired: boolean
  accepted: boolean
}
