-- Up Migration
-- What /metrics reads of the whole deployment, across orgs: a SECURITY DEFINER function the app role may call
-- (row-level security would show it one org at a time), over indexed, recent or small sets only.
CREATE INDEX webhook_attempts_created ON webhook_attempts (created_at);
CREATE INDEX automation_runs_open ON automation_runs (status) WHERE status IN ('pending', 'running');
CREATE INDEX automation_runs_finished ON automation_runs (finished_at) WHERE finished_at IS NOT NULL;

CREATE OR REPLACE FUNCTION metrics_snapshot()
  RETURNS TABLE (metric text, label text, value double precision)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT 'outbox_lag_seconds', '', COALESCE(EXTRACT(EPOCH FROM now() - min(enqueued_at)), 0)::double precision
  FROM webhook_relay_queue
  UNION ALL
  SELECT 'webhook_deliveries_pending', '', count(*)::double precision FROM webhook_deliveries WHERE status = 'pending'
  UNION ALL
  SELECT 'webhook_attempts_5m', CASE WHEN succeeded THEN 'succeeded' ELSE 'failed' END, count(*)::double precision
  FROM webhook_attempts WHERE created_at > now() - interval '5 minutes' GROUP BY 2
  UNION ALL
  SELECT 'automation_runs_open', status, count(*)::double precision
  FROM automation_runs WHERE status IN ('pending', 'running') GROUP BY 2
  UNION ALL
  SELECT 'automation_runs_finished_5m', status, count(*)::double precision
  FROM automation_runs WHERE finished_at > now() - interval '5 minutes' GROUP BY 2
$$;
REVOKE ALL ON FUNCTION metrics_snapshot() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION metrics_snapshot() TO opentill_app;
