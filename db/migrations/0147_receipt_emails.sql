-- Up Migration
-- Receipts by e-mail (issue 25 item 3): each one sent is counted, so a till cannot be used to send mail to anyone
-- at will (a few per order, a ceiling per org and day). Only the order and the time are kept: the address travels
-- sealed in mail_outbox and is gone once sent.
CREATE TABLE receipt_emails (
  org_id text NOT NULL,
  id text NOT NULL,
  order_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
SELECT enable_org_rls('receipt_emails');
CREATE INDEX receipt_emails_order ON receipt_emails (org_id, order_id);
CREATE INDEX receipt_emails_created ON receipt_emails (org_id, created_at);

-- An e-mail may carry an HTML part beside its text (a receipt), sealed like the text.
ALTER TABLE mail_outbox ADD COLUMN html_sealed text;
DROP FUNCTION mail_outbox_claim(integer, integer);
CREATE FUNCTION mail_outbox_claim(p_lease_s integer, p_batch integer)
  RETURNS TABLE (org_id text, id text, to_address text, subject text, body_sealed text, html_sealed text,
    attempts integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE mail_outbox m SET claimed_until = now() + make_interval(secs => p_lease_s), attempts = m.attempts + 1
  WHERE (m.org_id, m.id) IN (
    SELECT c.org_id, c.id FROM mail_outbox c
    WHERE c.claimed_until IS NULL OR c.claimed_until < now()
    ORDER BY c.created_at, c.id
    LIMIT p_batch FOR UPDATE SKIP LOCKED
  )
  RETURNING m.org_id, m.id, m.to_address, m.subject, m.body_sealed, m.html_sealed, m.attempts
$$;
REVOKE ALL ON FUNCTION mail_outbox_claim(integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_outbox_claim(integer, integer) TO opentill_app;
