-- Up Migration
-- Endpoint management and the low-latency relay.

-- A deleted endpoint stops receiving but keeps its row, so its deliveries and attempts stay in the log.
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_status_check;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_status_check
  CHECK (status IN ('active', 'suspended', 'deleted'));
ALTER TABLE webhook_endpoints ADD COLUMN deleted_at timestamptz;

-- When the owner's suspension notice went out, and how (e-mail or log), for the dashboard.
ALTER TABLE webhook_endpoints ADD COLUMN suspension_notified_at timestamptz;
ALTER TABLE webhook_endpoints ADD COLUMN suspension_notified_by text;

-- An uninstalled integration is hidden and its endpoints deleted; the row stays for the endpoints' history.
ALTER TABLE integrations ADD COLUMN uninstalled_at timestamptz;

-- The relay trigger also wakes listening workers at once. NOTIFY is delivered at commit (never for a rolled back
-- event) and collapses to one notification per transaction; workers still poll, so a lost one only costs latency.
CREATE OR REPLACE FUNCTION webhook_enqueue_event() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE org_id = NEW.org_id AND status = 'active') THEN
    INSERT INTO webhook_relay_queue (event_id, org_id) VALUES (NEW.id, NEW.org_id);
    PERFORM pg_notify('webhook_relay', '');
  END IF;
  RETURN NULL;
END $$;
