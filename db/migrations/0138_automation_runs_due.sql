-- Up Migration
-- Runs over an org's runs per minute wait, pending, until their `due_at` (0134): the claim reads the due ones
-- through an index on `due_at`, instead of walking every waiting run on each poll.
CREATE INDEX automation_runs_pending_due ON automation_runs (due_at, id) WHERE status = 'pending';

CREATE OR REPLACE FUNCTION automation_claim_runs(p_limit integer, p_stale_ms integer)
  RETURNS TABLE (org_id text, id text, resume_from integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE automation_runs r SET dispatched_at = now()
  WHERE (r.org_id, r.id) IN (
    SELECT c.org_id, c.id FROM automation_runs c
    WHERE c.status = 'pending' AND c.due_at <= now()
      AND (c.dispatched_at IS NULL OR c.dispatched_at < now() - make_interval(secs => p_stale_ms / 1000.0))
    ORDER BY c.due_at, c.id
    LIMIT p_limit FOR UPDATE SKIP LOCKED
  )
  RETURNING r.org_id, r.id, r.resume_from
$$;
