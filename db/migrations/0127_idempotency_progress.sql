-- Up Migration
-- Idempotency keys are committed as "in progress" before the request's work runs, in a transaction of their own
-- (docs/api-conventions.md "Idempotency"): no request holds a transaction open across a payment processor's call.
-- `steps` keeps the results of outbound calls (an authorization) so that a retry resumes instead of repeating
-- them; `work_committed` is set inside every transaction of the request's work, so a retry after a crash knows
-- whether the first attempt changed anything.
ALTER TABLE idempotency_keys
  ADD COLUMN state text NOT NULL DEFAULT 'completed' CHECK (state IN ('in_progress', 'completed')),
  ADD COLUMN locked_until timestamptz,
  ADD COLUMN steps jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN work_committed boolean NOT NULL DEFAULT false,
  ALTER COLUMN status_code DROP NOT NULL,
  ALTER COLUMN content_type DROP NOT NULL,
  ALTER COLUMN body DROP NOT NULL;
ALTER TABLE idempotency_keys ALTER COLUMN state SET DEFAULT 'in_progress';
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Keys answer for 24 hours; the worker deletes older ones across orgs.
CREATE FUNCTION idempotency_purge_expired() RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM idempotency_keys
    WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < now() - interval '24 hours' LIMIT 10000)
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;
REVOKE ALL ON FUNCTION idempotency_purge_expired() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idempotency_purge_expired() TO opentill_app;
