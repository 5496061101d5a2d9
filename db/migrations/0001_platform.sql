-- Up Migration
-- The application role: not a superuser, no BYPASSRLS; the app connects as the owner and takes this role.
DO $$
BEGIN
  CREATE ROLE opentill_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
GRANT opentill_app TO CURRENT_USER;
GRANT USAGE ON SCHEMA public TO opentill_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO opentill_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO opentill_app;

-- Every org-scoped table calls this: rows are visible and writable only while app.org_id names their org.
-- FORCE applies the policies to the table owner too; the owner keeps a maintenance policy for the
-- SECURITY DEFINER look-ups that must cross orgs (login by e-mail, refresh token by hash).
CREATE FUNCTION enable_org_rls(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format($p$CREATE POLICY org_isolation ON %s
    USING (org_id = current_setting('app.org_id', true))
    WITH CHECK (org_id = current_setting('app.org_id', true))$p$, tbl);
  EXECUTE format('CREATE POLICY owner_maintenance ON %s TO %I USING (true) WITH CHECK (true)', tbl, current_user);
END $$;

CREATE TABLE orgs (
  id text PRIMARY KEY,
  org_id text GENERATED ALWAYS AS (id) STORED NOT NULL,
  name text NOT NULL,
  plan text NOT NULL DEFAULT 'starter' CHECK (plan IN ('starter', 'growth', 'pro', 'enterprise')),
  currency char(3) NOT NULL DEFAULT 'USD',
  allow_negative_stock boolean NOT NULL DEFAULT false,
  prices_include_tax boolean NOT NULL DEFAULT false,
  rate_limit_per_minute integer,
  rate_limit_burst integer,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX orgs_org_id ON orgs (org_id);
SELECT enable_org_rls('orgs');

CREATE TABLE users (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  password_hash text,
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One login per e-mail across all orgs: login names no org.
CREATE UNIQUE INDEX users_email ON users (lower(email));
CREATE INDEX users_org ON users (org_id);
SELECT enable_org_rls('users');

-- A login session is a refresh-token family; access tokens carry its id as `sid`.
CREATE TABLE auth_sessions (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  user_id text NOT NULL REFERENCES users (id),
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX auth_sessions_org_user ON auth_sessions (org_id, user_id);
SELECT enable_org_rls('auth_sessions');

CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  session_id text NOT NULL REFERENCES auth_sessions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
SELECT enable_org_rls('refresh_tokens');

-- Sessions revoked while their access tokens may still be alive: the check every authenticated request makes
-- when neither Redis nor a single embedded process holds the list. Not org-scoped: looked up by session id.
CREATE TABLE revoked_sessions (
  session_id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
GRANT SELECT, INSERT, UPDATE, DELETE ON revoked_sessions TO opentill_app;

CREATE TABLE idempotency_keys (
  org_id text NOT NULL REFERENCES orgs (id),
  client_id text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  status_code integer NOT NULL,
  content_type text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, client_id, key)
);
SELECT enable_org_rls('idempotency_keys');

-- The outbox: every state change writes its event here in the same transaction; workers deliver afterwards.
CREATE TABLE events (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_org_created ON events (org_id, created_at, id);
CREATE INDEX events_org_type_created ON events (org_id, type, created_at, id);
SELECT enable_org_rls('events');

-- ES256 signing keys shared by every instance; `kid` rotation keeps retired keys for verification.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);
GRANT SELECT, INSERT, UPDATE ON signing_keys TO opentill_app;

-- Cross-org look-ups for the unauthenticated entry points. Each answers only the org to scope the next step to.
CREATE FUNCTION auth_org_of_email(p_email text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM users WHERE lower(email) = lower(p_email)
$$;
CREATE FUNCTION auth_org_of_refresh_token(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM refresh_tokens WHERE token_hash = p_hash
$$;
REVOKE ALL ON FUNCTION auth_org_of_email(text), auth_org_of_refresh_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_org_of_email(text), auth_org_of_refresh_token(text) TO opentill_app;

-- Whether the database holds any org yet (a fresh start seeds a demo org).
CREATE FUNCTION platform_has_orgs() RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT EXISTS (SELECT 1 FROM orgs)
$$;
REVOKE ALL ON FUNCTION platform_has_orgs() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION platform_has_orgs() TO opentill_app;
