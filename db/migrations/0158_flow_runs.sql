-- Up Migration
-- One durable-step mechanism for every flow that calls out (docs/architecture.md "Durable flow runs"): a run is
-- recorded, with its input, in the transaction of the flow's first step; each outbound step's result is recorded
-- against it before the flow goes on; the transaction of the last step deletes it. A run still here when no request
-- can be running it any more was interrupted (a crash, a lost connection, a processor call that threw): one claimer
-- hands it to its flow, which finishes it from its recorded steps. Replaces the claim functions, columns and index
-- of refunds (0045) and lay-by cancellations (0129).
CREATE TABLE flow_runs (
  org_id text NOT NULL,
  flow text NOT NULL,
  key text NOT NULL,
  input jsonb NOT NULL,
  steps jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  PRIMARY KEY (org_id, flow, key)
);
CREATE INDEX flow_runs_created ON flow_runs (created_at);
SELECT enable_org_rls('flow_runs');

-- Claims the runs of the flows the calling worker can finish (the runs of requests have none: their client's retry
-- resumes them, docs/api-conventions.md "Idempotency").
CREATE FUNCTION flow_runs_claim_stalled(flows text[], older_than interval, lease interval, batch integer)
  RETURNS TABLE (org_id text, flow text, key text, input jsonb, steps jsonb, started_at text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE flow_runs r SET claimed_until = now() + lease
  FROM (
    SELECT org_id, flow, key FROM flow_runs
    WHERE flow = ANY (flows) AND created_at < now() - older_than AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY created_at
    LIMIT batch
    FOR UPDATE SKIP LOCKED
  ) due
  WHERE r.org_id = due.org_id AND r.flow = due.flow AND r.key = due.key
  RETURNING r.org_id, r.flow, r.key, r.input, r.steps, r.created_at::text
$$;
REVOKE ALL ON FUNCTION flow_runs_claim_stalled(text[], interval, interval, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION flow_runs_claim_stalled(text[], interval, interval, integer) TO opentill_app;

-- Work an upgraded database holds half-done becomes runs, dated as before, so that the claimer finishes it; the
-- steps of keyed requests still in progress become their runs (platform/flows/request-runs.ts).
INSERT INTO flow_runs (org_id, flow, key, input, created_at)
  SELECT org_id, 'refund', id, jsonb_build_object('shiftId', NULL), created_at FROM refunds WHERE status = 'pending';
INSERT INTO flow_runs (org_id, flow, key, input, created_at)
  SELECT org_id, 'layby-cancellation', id, jsonb_build_object('reason', cancel_reason, 'shiftId', cancel_shift_id),
         updated_at
  FROM laybys WHERE status = 'cancelling';

INSERT INTO flow_runs (org_id, flow, key, input, steps, created_at)
  SELECT org_id, 'request', jsonb_build_array(client_id, key)::text, '{}', steps, created_at
  FROM idempotency_keys WHERE state = 'in_progress' AND steps <> '{}';

DROP FUNCTION refunds_claim_stalled(interval, interval, integer);
DROP FUNCTION laybys_claim_stalled_cancellations(interval, interval, integer);
DROP INDEX refunds_pending;
DROP INDEX laybys_cancelling;
ALTER TABLE refunds DROP COLUMN claimed_until;
ALTER TABLE laybys DROP COLUMN cancel_reason, DROP COLUMN cancel_shift_id, DROP COLUMN claimed_until;
ALTER TABLE idempotency_keys DROP COLUMN steps;

-- A purged key takes its request's run with it.
CREATE OR REPLACE FUNCTION idempotency_purge_expired() RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM idempotency_keys
    WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < now() - interval '24 hours' LIMIT 10000)
    RETURNING org_id, client_id, key
  ), runs AS (
    DELETE FROM flow_runs r USING gone
    WHERE r.org_id = gone.org_id AND r.flow = 'request' AND r.key = jsonb_build_array(gone.client_id, gone.key)::text
  )
  SELECT count(*)::integer FROM gone
$$;
