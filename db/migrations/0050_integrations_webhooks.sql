-- Up Migration
-- Installed integrations of an org; webhook endpoints hang under them.
CREATE TABLE integrations (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  type text NOT NULL,
  config jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX integrations_org_id ON integrations (org_id, id);
SELECT enable_org_rls('integrations');

-- A subscriber's HTTPS endpoint. The secret is kept in clear because every delivery is signed with it (HMAC);
-- during a rotation the previous secret signs too until previous_secret_expires_at.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  integration_id text NOT NULL REFERENCES integrations (id),
  url text NOT NULL,
  events text[] NOT NULL,
  description text NOT NULL DEFAULT '',
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  consecutive_failures integer NOT NULL DEFAULT 0,
  suspended_at timestamptz,
  suspension_reason text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_org_integration ON webhook_endpoints (org_id, integration_id, id);
CREATE INDEX webhook_endpoints_org_status ON webhook_endpoints (org_id, status);
SELECT enable_org_rls('webhook_endpoints');

-- Outbox rows waiting to be fanned out into deliveries. Filled by a trigger in the transaction that writes the
-- event, so an event committed just before a crash is still relayed after restart; the relay deletes what it
-- claimed in the transaction that creates the deliveries.
CREATE TABLE webhook_relay_queue (
  event_id text PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  org_id text NOT NULL REFERENCES orgs (id),
  enqueued_at timestamptz NOT NULL DEFAULT now()
);
SELECT enable_org_rls('webhook_relay_queue');

-- One event (or test payload) for one endpoint: `id` is the envelope id, `payload` the exact bytes sent on
-- every attempt. round_attempts counts attempts of the current schedule (a replay starts a new one).
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id),
  event_id text REFERENCES events (id) ON DELETE SET NULL,
  event text NOT NULL,
  payload text NOT NULL,
  is_test boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count integer NOT NULL DEFAULT 0,
  round_attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_status_code integer,
  last_error text,
  replay_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  failed_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_org_failed ON webhook_deliveries (org_id, id) WHERE status = 'failed';
CREATE INDEX webhook_deliveries_org_endpoint ON webhook_deliveries (org_id, endpoint_id, id);
SELECT enable_org_rls('webhook_deliveries');

-- Every HTTP attempt, for the delivery log.
CREATE TABLE webhook_attempts (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id),
  attempt integer NOT NULL,
  url text NOT NULL,
  succeeded boolean NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_attempts_org_id ON webhook_attempts (org_id, id);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (org_id, delivery_id, id);
SELECT enable_org_rls('webhook_attempts');

-- Enqueue each new outbox row of an org that has an active endpoint (orgs without webhooks pay one index probe).
CREATE FUNCTION webhook_enqueue_event() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE org_id = NEW.org_id AND status = 'active') THEN
    INSERT INTO webhook_relay_queue (event_id, org_id) VALUES (NEW.id, NEW.org_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER events_webhook_relay AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION webhook_enqueue_event();

-- The workers run as opentill_app and serve every org: these claims are their only cross-org reads. Both skip
-- rows another worker holds, so no two workers take the same event or the same attempt.
CREATE FUNCTION webhook_claim_relay(p_limit integer) RETURNS TABLE (event_id text, org_id text)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  DELETE FROM webhook_relay_queue q
  WHERE q.event_id IN (
    SELECT event_id FROM webhook_relay_queue ORDER BY event_id LIMIT p_limit FOR UPDATE SKIP LOCKED
  )
  RETURNING q.event_id, q.org_id
$$;

-- Takes due attempts of active endpoints (tests also go to suspended ones, to check a fix before re-enabling) and leases them for p_lease_ms: a worker that dies mid-attempt
-- leaves its lease to expire, and the next attempt (a new attempt number) goes to whoever claims it then.
CREATE FUNCTION webhook_claim_attempts(p_limit integer, p_lease_ms integer)
  RETURNS TABLE (
    id text, org_id text, endpoint_id text, event text, payload text, is_test boolean,
    attempt integer, round_attempts integer, url text, secret text, previous_secret text
  )
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH due AS (
    SELECT d.id FROM webhook_deliveries d
    JOIN webhook_endpoints w ON w.id = d.endpoint_id AND (w.status = 'active' OR d.is_test)
    WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      AND (d.locked_until IS NULL OR d.locked_until < now())
    ORDER BY d.next_attempt_at
    LIMIT p_limit
    FOR UPDATE OF d SKIP LOCKED
  ), claimed AS (
    UPDATE webhook_deliveries d
    SET locked_until = now() + make_interval(secs => p_lease_ms / 1000.0),
        attempt_count = d.attempt_count + 1,
        round_attempts = d.round_attempts + 1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.org_id, d.endpoint_id, d.event, d.payload, d.is_test, d.attempt_count, d.round_attempts
  )
  SELECT c.id, c.org_id, c.endpoint_id, c.event, c.payload, c.is_test, c.attempt_count, c.round_attempts, w.url, w.secret,
         CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END
  FROM claimed c JOIN webhook_endpoints w ON w.id = c.endpoint_id
$$;

-- Failed deliveries are kept for replay 72 hours; finished ones stay in the log 30 days.
CREATE FUNCTION webhook_purge_expired() RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM webhook_deliveries
    WHERE (status = 'failed' AND failed_at < now() - interval '72 hours')
       OR (status = 'succeeded' AND completed_at < now() - interval '30 days')
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;

REVOKE ALL ON FUNCTION webhook_claim_relay(integer), webhook_claim_attempts(integer, integer), webhook_purge_expired() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION webhook_claim_relay(integer), webhook_claim_attempts(integer, integer), webhook_purge_expired() TO opentill_app;
