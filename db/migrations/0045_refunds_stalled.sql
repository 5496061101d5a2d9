-- Up Migration
-- A refund whose request ended between its reservation and its settlement (a crash, a lost connection, a
-- processor call that threw) stays pending. The worker claims such refunds once they are older than any request
-- could run, and finishes them: the processor call again under the same idempotency reference, then the
-- settlement, exactly once (docs/commerce.md "Refunds").
ALTER TABLE refunds ADD COLUMN claimed_until timestamptz;
CREATE INDEX refunds_pending ON refunds (created_at) WHERE status = 'pending';

CREATE FUNCTION refunds_claim_stalled(older_than interval, lease interval, batch integer)
  RETURNS TABLE (org_id text, refund_id text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE refunds r SET claimed_until = now() + lease
  FROM (
    SELECT id, org_id FROM refunds
    WHERE status = 'pending' AND created_at < now() - older_than AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY created_at
    LIMIT batch
    FOR UPDATE SKIP LOCKED
  ) due
  WHERE r.id = due.id AND r.org_id = due.org_id
  RETURNING r.org_id, r.id
$$;
REVOKE ALL ON FUNCTION refunds_claim_stalled(interval, interval, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION refunds_claim_stalled(interval, interval, integer) TO opentill_app;
