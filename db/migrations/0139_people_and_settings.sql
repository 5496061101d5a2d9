-- Up Migration
-- People and settings (issue 24): staff invitations that can be revoked, password resets, e-mails queued in the
-- transaction that asks for them, the store's settings, and an append-only audit log.

-- Staff invitations are revoked by whoever may manage the invitee's role; who invited is kept for the audit log.
ALTER TABLE invitations ADD COLUMN revoked_at timestamptz, ADD COLUMN invited_by text;
CREATE INDEX invitations_pending ON invitations (org_id, created_at, id) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- Single-use links that let a user choose a new password; only the SHA-256 of the token is stored.
CREATE TABLE password_resets (
  id text NOT NULL,
  org_id text NOT NULL REFERENCES orgs (id),
  user_id text NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, org_id),
  FOREIGN KEY (user_id, org_id) REFERENCES users (id, org_id)
);
CREATE UNIQUE INDEX password_resets_token ON password_resets (token_hash, org_id);
CREATE INDEX password_resets_org_user ON password_resets (org_id, user_id);
SELECT enable_org_rls('password_resets');

-- The unauthenticated confirm endpoint knows only the token: this answers the org to scope the next step to.
CREATE FUNCTION password_reset_org_of_token(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM password_resets WHERE token_hash = p_hash
$$;
REVOKE ALL ON FUNCTION password_reset_org_of_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION password_reset_org_of_token(text) TO opentill_app;

-- E-mails a request asks for (invitations, password resets) are written here in its transaction and sent by a
-- worker afterwards: none is lost to a crash, none is sent for a change that rolled back, and no SMTP wait holds
-- a transaction. The body holds a link that works once, so it is sealed (SECRETS_KEY) and deleted once sent.
CREATE TABLE mail_outbox (
  id text NOT NULL,
  org_id text NOT NULL REFERENCES orgs (id),
  to_address text NOT NULL,
  subject text NOT NULL,
  body_sealed text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, org_id)
);
CREATE INDEX mail_outbox_due ON mail_outbox (created_at, id);
SELECT enable_org_rls('mail_outbox');

-- Claims a batch across orgs and answers what the worker sends, so that each mail costs no second read.
CREATE FUNCTION mail_outbox_claim(p_lease_s integer, p_batch integer)
  RETURNS TABLE (org_id text, id text, to_address text, subject text, body_sealed text, attempts integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE mail_outbox m SET claimed_until = now() + make_interval(secs => p_lease_s), attempts = m.attempts + 1
  WHERE (m.org_id, m.id) IN (
    SELECT c.org_id, c.id FROM mail_outbox c
    WHERE c.claimed_until IS NULL OR c.claimed_until < now()
    ORDER BY c.created_at, c.id
    LIMIT p_batch FOR UPDATE SKIP LOCKED
  )
  RETURNING m.org_id, m.id, m.to_address, m.subject, m.body_sealed, m.attempts
$$;
REVOKE ALL ON FUNCTION mail_outbox_claim(integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_outbox_claim(integer, integer) TO opentill_app;

-- The store's settings (GET/PATCH /settings); the currency and the tax-inclusive flag already live here.
ALTER TABLE orgs
  ADD COLUMN phone text NOT NULL DEFAULT '',
  ADD COLUMN address jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN timezone text NOT NULL DEFAULT 'UTC',
  ADD COLUMN receipt_header text NOT NULL DEFAULT '',
  ADD COLUMN receipt_footer text NOT NULL DEFAULT '',
  ADD COLUMN tips jsonb NOT NULL DEFAULT '{"enabled": false, "percentages": [], "base": "before_tax"}';

-- Who did what: written in the transaction of the change it records, never changed or deleted by the app.
CREATE TABLE audit_log (
  id text NOT NULL,
  org_id text NOT NULL REFERENCES orgs (id),
  occurred_at timestamptz NOT NULL DEFAULT now(),
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'app', 'system')),
  actor_user_id text,
  actor_client_id text,
  register_id text,
  action text NOT NULL,
  record_type text NOT NULL,
  record_id text NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}',
  request_id text,
  PRIMARY KEY (id, org_id)
);
-- Ids sort by the time they were made: pages are keyset on the id, newest first.
CREATE INDEX audit_log_org_id ON audit_log (org_id, id DESC);
CREATE INDEX audit_log_org_record ON audit_log (org_id, record_id, id DESC);
CREATE INDEX audit_log_org_user ON audit_log (org_id, actor_user_id, id DESC);
SELECT enable_org_rls('audit_log');
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM opentill_app;

-- Retention: entries older than the deployment's AUDIT_RETENTION_DAYS go, through the owner's rights only. The
-- function keeps a year whatever it is asked, so the app's role, which may call it, cannot empty the log.
CREATE FUNCTION audit_log_purge(p_days integer, p_batch integer) RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM audit_log WHERE (org_id, id) IN (
      SELECT org_id, id FROM audit_log WHERE occurred_at < now() - make_interval(days => GREATEST(p_days, 365))
      LIMIT p_batch
    ) RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;
REVOKE ALL ON FUNCTION audit_log_purge(integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION audit_log_purge(integer, integer) TO opentill_app;
