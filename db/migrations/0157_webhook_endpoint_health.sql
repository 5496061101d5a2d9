-- Up Migration
-- The back office says of each webhook endpoint since when it has not answered and how many events wait for it.
-- failing_since: the first failed attempt since the last delivered one (a test ping says nothing of health).
ALTER TABLE webhook_endpoints ADD COLUMN failing_since timestamptz;
-- events_pending and events_failed count these per endpoint (failed ones replayable for 72 hours).
CREATE INDEX webhook_deliveries_org_endpoint_waiting ON webhook_deliveries (org_id, endpoint_id)
  WHERE status IN ('pending', 'failed') AND NOT is_test;
