-- Up Migration
-- Automations act with their author's rights (docs/automations.md "Authors and scopes"). A rule records who last
-- saved it: a user (login) or an app's grant, and the scopes that credential held. A run acts with those scopes
-- still held today: a user's role may have narrowed, a grant may be revoked, a user deactivated.
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;

ALTER TABLE automations
  ADD COLUMN author_user_id text,
  ADD COLUMN author_client_id text NOT NULL DEFAULT 'first-party',
  ADD COLUMN author_grant_id text,
  ADD COLUMN author_scopes text[] NOT NULL DEFAULT '{}';

-- Rules saved before authors were kept belong to the org's oldest active owner, with an owner's scopes: they keep
-- running as they did, and stop if that owner is deactivated (docs/automations.md says so).
UPDATE automations a SET
  author_user_id = (
    SELECT u.id FROM users u
    WHERE u.org_id = a.org_id AND u.role = 'owner' AND u.deactivated_at IS NULL
    ORDER BY u.created_at, u.id LIMIT 1
  ),
  author_scopes = ARRAY[
    'catalog:read', 'catalog:write', 'orders:read', 'orders:write', 'customers:read', 'customers:write',
    'loyalty:read', 'loyalty:write', 'loyalty:adjust', 'payments:read', 'payments:write', 'inventory:read',
    'inventory:write', 'reports:read', 'webhooks:write', 'automations:read', 'automations:write', 'campaigns:read',
    'campaigns:write', 'gift_cards:write', 'settings:write'
  ];

ALTER TABLE automations ALTER COLUMN author_client_id DROP DEFAULT, ALTER COLUMN author_scopes DROP DEFAULT,
  ADD CONSTRAINT automations_author_user_fkey FOREIGN KEY (author_user_id, org_id) REFERENCES users (id, org_id);

-- automation.triggered no longer triggers rules (no fan-out: docs/automations.md "Loops"): rules on it stop.
UPDATE automations SET enabled = false, updated_at = now(), version = version + 1
WHERE trigger_type = 'event' AND trigger_event = 'automation.triggered' AND enabled;

-- Runs started by hand (POST /automations/trigger) are marked; `due_at` is when a run may be handed to DBOS: at
-- once, or later when the org has used its runs of the minute (its plan's limit), so no run is dropped.
ALTER TABLE automation_runs
  ADD COLUMN manual boolean NOT NULL DEFAULT false,
  ADD COLUMN due_at timestamptz NOT NULL DEFAULT now();
UPDATE automation_runs SET due_at = created_at;
CREATE INDEX automation_runs_due ON automation_runs (org_id, due_at);

CREATE OR REPLACE FUNCTION automation_claim_runs(p_limit integer, p_stale_ms integer)
  RETURNS TABLE (org_id text, id text, resume_from integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE automation_runs r SET dispatched_at = now()
  WHERE (r.org_id, r.id) IN (
    SELECT c.org_id, c.id FROM automation_runs c
    WHERE c.status = 'pending' AND c.due_at <= now()
      AND (c.dispatched_at IS NULL OR c.dispatched_at < now() - make_interval(secs => p_stale_ms / 1000.0))
    ORDER BY c.dispatched_at NULLS FIRST, c.id
    LIMIT p_limit FOR UPDATE SKIP LOCKED
  )
  RETURNING r.org_id, r.id, r.resume_from
$$;

-- Run history keeps no code in clear (gift cards, vouchers): what runs stored before is masked as the API masks a
-- voucher for campaigns:read: all but the last four characters (all of a code shorter than 8).
CREATE FUNCTION pg_temp.masked_codes(j jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  v jsonb;
  result jsonb;
BEGIN
  IF jsonb_typeof(j) = 'object' THEN
    result := '{}'::jsonb;
    FOR k, v IN SELECT * FROM jsonb_each(j) LOOP
      IF k IN ('code', 'voucher_code') AND jsonb_typeof(v) = 'string' THEN
        result := result || jsonb_build_object(k, CASE WHEN length(v #>> '{}') >= 8
          THEN repeat('*', length(v #>> '{}') - 4) || right(v #>> '{}', 4) ELSE repeat('*', length(v #>> '{}')) END);
      ELSE
        result := result || jsonb_build_object(k, pg_temp.masked_codes(v));
      END IF;
    END LOOP;
    RETURN result;
  ELSIF jsonb_typeof(j) = 'array' THEN
    RETURN COALESCE((SELECT jsonb_agg(pg_temp.masked_codes(e) ORDER BY n) FROM jsonb_array_elements(j) WITH ORDINALITY AS t(e, n)), '[]'::jsonb);
  END IF;
  RETURN j;
END $$;

UPDATE automation_runs SET data = pg_temp.masked_codes(data) WHERE data::text ~ '"(voucher_)?code"';
UPDATE automation_run_steps SET output = pg_temp.masked_codes(output) WHERE output::text ~ '"(voucher_)?code"';
