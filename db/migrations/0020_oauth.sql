-- Up Migration
-- OAuth apps (clients). An app belongs to the org that registered it; `id` is its public client_id.
CREATE TABLE oauth_apps (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  redirect_uris text[] NOT NULL,
  allowed_scopes text[] NOT NULL,
  confidential boolean NOT NULL,
  partner boolean NOT NULL DEFAULT false,
  -- SHA-256 of the secret: secrets are 32 random bytes, so a fast hash is enough and a leak reveals nothing.
  secret_hash text,
  created_by text REFERENCES users (id),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (confidential = (secret_hash IS NOT NULL))
);
CREATE INDEX oauth_apps_org ON oauth_apps (org_id, id);
SELECT enable_org_rls('oauth_apps');

-- A grant is what an org gave an app: a consented authorization (one refresh-token family), a partner's
-- connection to a tenant, or one client-credentials issuance. Access tokens carry its id as `sid`.
CREATE TABLE oauth_grants (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  client_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('authorization_code', 'connection', 'client_credentials')),
  user_id text REFERENCES users (id),
  scopes text[] NOT NULL,
  parent_id text REFERENCES oauth_grants (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX oauth_grants_org_client ON oauth_grants (org_id, client_id) WHERE revoked_at IS NULL;
CREATE INDEX oauth_grants_client_connection ON oauth_grants (client_id) WHERE kind = 'connection' AND revoked_at IS NULL;
SELECT enable_org_rls('oauth_grants');

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  client_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id),
  scopes text[] NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- What the code was exchanged for, so a replay can revoke it (RFC 6749 §4.1.2).
  grant_id text REFERENCES oauth_grants (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
SELECT enable_org_rls('oauth_codes');

CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  grant_id text NOT NULL REFERENCES oauth_grants (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);
SELECT enable_org_rls('oauth_refresh_tokens');

-- Browser sessions of the web app (consent screen, dashboard); the cookie holds a random token, stored hashed.
CREATE TABLE web_sessions (
  token_hash text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  user_id text NOT NULL REFERENCES users (id),
  user_email text NOT NULL,
  -- The scopes of the user's role at sign-in: what a consent given in this session may grant at most.
  scopes text[] NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
SELECT enable_org_rls('web_sessions');

-- Cross-org look-ups for the unauthenticated protocol entry points; each answers only the org to scope to.
CREATE FUNCTION oauth_org_of_app(p_client_id text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM oauth_apps WHERE id = p_client_id
$$;
CREATE FUNCTION oauth_org_of_code(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM oauth_codes WHERE code_hash = p_hash
$$;
CREATE FUNCTION oauth_org_of_refresh_token(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM oauth_refresh_tokens WHERE token_hash = p_hash
$$;
CREATE FUNCTION web_org_of_session(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM web_sessions WHERE token_hash = p_hash AND expires_at > now()
$$;
-- The live connections of a partner app to tenant orgs. The service answers this only to the app's own org.
CREATE FUNCTION oauth_connections_of_client(p_client_id text)
  RETURNS TABLE (org_id text, grant_id text, scopes text[], created_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id, id, scopes, created_at FROM oauth_grants
  WHERE client_id = p_client_id AND kind = 'connection' AND revoked_at IS NULL ORDER BY org_id
$$;
-- What a tenant's transaction needs to connect a partner app: its allowed scopes, null unless it is a partner app.
CREATE FUNCTION oauth_partner_app_scopes(p_client_id text) RETURNS text[]
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT allowed_scopes FROM oauth_apps WHERE id = p_client_id AND partner
$$;
REVOKE ALL ON FUNCTION oauth_org_of_app(text), oauth_org_of_code(text), oauth_org_of_refresh_token(text),
  web_org_of_session(text), oauth_connections_of_client(text), oauth_partner_app_scopes(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION oauth_org_of_app(text), oauth_org_of_code(text), oauth_org_of_refresh_token(text),
  web_org_of_session(text), oauth_connections_of_client(text), oauth_partner_app_scopes(text) TO opentill_app;
