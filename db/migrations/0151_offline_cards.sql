-- Up Migration
-- Cards taken offline (issue 27 item 4, docs/sync.md): recorded at sync as `pending`, with the adapter's stored token
-- sealed, and authorized by a worker afterwards; declined past a configured age.
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('pending', 'requires_capture', 'captured',
  'voided', 'failed', 'partially_refunded', 'refunded'));
ALTER TABLE payments ADD COLUMN offline_token_sealed text, ADD COLUMN taken_at timestamptz,
  ADD COLUMN claimed_until timestamptz;
CREATE INDEX payments_pending ON payments (created_at) WHERE status = 'pending';

-- The worker's claim across orgs: pending cards, each leased so that two workers never authorize one at once.
CREATE FUNCTION payments_claim_pending(p_older interval, p_lease interval, p_batch integer)
  RETURNS TABLE (org_id text, payment_id text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE payments p SET claimed_until = now() + p_lease
  WHERE (p.org_id, p.id) IN (
    SELECT c.org_id, c.id FROM payments c
    WHERE c.status = 'pending' AND c.created_at <= now() - p_older
      AND (c.claimed_until IS NULL OR c.claimed_until < now())
    ORDER BY c.created_at LIMIT p_batch FOR UPDATE SKIP LOCKED
  )
  RETURNING p.org_id, p.id
$$;
REVOKE ALL ON FUNCTION payments_claim_pending(interval, interval, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION payments_claim_pending(interval, interval, integer) TO opentill_app;
