/** Row types and column lists of the partner tables, once each. */
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
