-- Up Migration
-- A lay-by cancellation whose request ended between its steps (a crash, a lost connection, a processor call that
-- threw) stays `cancelling`. Its reason and till shift are kept with it, so that the worker can finish it once it
-- is older than any request could run: the processor again under the lay-by's reference, then the settlement
-- (docs/commerce.md "Lay-bys").
ALTER TABLE laybys
  ADD COLUMN cancel_reason text,
  ADD COLUMN cancel_shift_id text,
  ADD COLUMN claimed_until timestamptz;
CREATE INDEX laybys_cancelling ON laybys (updated_at) WHERE status = 'cancelling';

CREATE FUNCTION laybys_claim_stalled_cancellations(older_than interval, lease interval, batch integer)
  RETURNS TABLE (org_id text, layby_id text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE laybys l SET claimed_until = now() + lease
  FROM (
    SELECT id, org_id FROM laybys
    WHERE status = 'cancelling' AND updated_at < now() - older_than AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY updated_at
    LIMIT batch
    FOR UPDATE SKIP LOCKED
  ) due
  WHERE l.id = due.id AND l.org_id = due.org_id
  RETURNING l.org_id, l.id
$$;
REVOKE ALL ON FUNCTION laybys_claim_stalled_cancellations(interval, interval, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION laybys_claim_stalled_cancellations(interval, interval, integer) TO opentill_app;
