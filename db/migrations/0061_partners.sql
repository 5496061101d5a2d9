-- Up Migration
-- Reseller tenants a partner app provisioned. The row belongs to the partner's org (its listing); the tenant
-- org itself, its owner and the app connection live in the tenant org.
CREATE TABLE partner_tenants (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  client_id text NOT NULL,
  tenant_org_id text NOT NULL REFERENCES orgs (id),
  grant_id text NOT NULL,
  name text NOT NULL,
  plan text NOT NULL,
  currency char(3) NOT NULL,
  owner_email text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX partner_tenants_tenant ON partner_tenants (tenant_org_id);
CREATE INDEX partner_tenants_org_client ON partner_tenants (org_id, client_id, id);
SELECT enable_org_rls('partner_tenants');

-- One-time links that let an invited user set a password. Only the SHA-256 of the token is stored.
CREATE TABLE invitations (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  user_id text NOT NULL REFERENCES users (id),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX invitations_token ON invitations (token_hash);
CREATE INDEX invitations_org_user ON invitations (org_id, user_id);
SELECT enable_org_rls('invitations');

-- The unauthenticated accept endpoint knows only the token: this answers the org to scope the next step to.
CREATE FUNCTION invitation_org_of_token(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM invitations WHERE token_hash = p_hash
$$;
REVOKE ALL ON FUNCTION invitation_org_of_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION invitation_org_of_token(text) TO opentill_app;
