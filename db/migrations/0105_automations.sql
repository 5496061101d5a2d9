-- Up Migration
-- Customers gain tags (the automations' "tag a customer" action; shown on the customer).
ALTER TABLE customers ADD COLUMN tags text[] NOT NULL DEFAULT '{}';

-- A rule: a trigger (an event of the catalog, or a cron schedule in a location's time zone), conditions over the
-- event's data and ordered actions. `trigger_event` is the canonical outbox name an event trigger waits for.
-- `schedule_cursor` is the last instant a schedule trigger has been considered up to (docs/automations.md).
CREATE TABLE automations (
  org_id text NOT NULL,
  id text NOT NULL,
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  trigger_type text NOT NULL CHECK (trigger_type IN ('event', 'schedule')),
  trigger_event text,
  trigger jsonb NOT NULL,
  conditions jsonb NOT NULL,
  actions jsonb NOT NULL,
  schedule_cursor timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX automations_event ON automations (org_id, trigger_event) WHERE enabled AND trigger_type = 'event';
CREATE INDEX automations_schedule ON automations (org_id, id) WHERE enabled AND trigger_type = 'schedule';
SELECT enable_org_rls('automations');

-- One execution of a rule: a DBOS workflow whose id is the run's id. `actions` are the rule's actions when it
-- was triggered (an edit of the rule never changes a run under way). `resume_from` is the DBOS step a requested
-- retry rewinds to; `dispatched_at` when a worker last handed the run to DBOS.
CREATE TABLE automation_runs (
  org_id text NOT NULL,
  id text NOT NULL,
  automation_id text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed')),
  event text NOT NULL,
  event_id text,
  scheduled_for timestamptz,
  data jsonb NOT NULL,
  depth smallint NOT NULL,
  actions jsonb NOT NULL,
  error text,
  retries integer NOT NULL DEFAULT 0,
  resume_from integer,
  dispatched_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, automation_id) REFERENCES automations (org_id, id) ON DELETE CASCADE,
  -- An event or a schedule slot triggers a rule at most once, whatever the worker's crashes.
  UNIQUE (org_id, automation_id, event_id),
  UNIQUE (org_id, automation_id, scheduled_for)
);
CREATE INDEX automation_runs_rule ON automation_runs (org_id, automation_id, id);
CREATE INDEX automation_runs_undispatched ON automation_runs (dispatched_at NULLS FIRST) WHERE status = 'pending';
SELECT enable_org_rls('automation_runs');

-- One action of a run: what it was given, what it answered or why it failed, and how many attempts it took.
CREATE TABLE automation_run_steps (
  org_id text NOT NULL,
  run_id text NOT NULL,
  position integer NOT NULL,
  type text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed')),
  input jsonb NOT NULL,
  output jsonb,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  dbos_step integer,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (org_id, run_id, position),
  FOREIGN KEY (org_id, run_id) REFERENCES automation_runs (org_id, id) ON DELETE CASCADE
);
SELECT enable_org_rls('automation_run_steps');

-- Committed events that some enabled rule waits for, with the automation depth of the transaction that emitted
-- them (set by an automation's own action: docs/automations.md, "Loops").
CREATE TABLE automation_trigger_queue (
  org_id text NOT NULL,
  event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  depth smallint NOT NULL,
  PRIMARY KEY (org_id, event_id)
);
CREATE INDEX automation_trigger_queue_order ON automation_trigger_queue (event_id);
SELECT enable_org_rls('automation_trigger_queue');

-- Orgs without a rule for the event pay one index probe; NOTIFY wakes listening workers at commit.
CREATE FUNCTION automation_enqueue_event() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM automations
    WHERE org_id = NEW.org_id AND trigger_event = NEW.type AND enabled AND trigger_type = 'event'
  ) THEN
    INSERT INTO automation_trigger_queue (org_id, event_id, depth)
    VALUES (NEW.org_id, NEW.id, COALESCE(NULLIF(current_setting('app.automation_depth', true), '')::smallint, 0));
    PERFORM pg_notify('automation_trigger', '');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER events_automation_trigger AFTER INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION automation_enqueue_event();

-- The workers serve every org: these are their only cross-org reads. Claims skip rows another worker holds.
CREATE FUNCTION automation_claim_triggers(p_limit integer) RETURNS TABLE (org_id text, event_id text, depth smallint)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  DELETE FROM automation_trigger_queue q
  WHERE (q.org_id, q.event_id) IN (
    SELECT t.org_id, t.event_id FROM automation_trigger_queue t ORDER BY t.event_id LIMIT p_limit FOR UPDATE SKIP LOCKED
  )
  RETURNING q.org_id, q.event_id, q.depth
$$;

-- Pending runs not yet handed to DBOS, or handed over `p_stale_ms` ago by a worker that may have died before
-- DBOS recorded them (starting a workflow id twice is harmless: DBOS answers the existing one).
CREATE FUNCTION automation_claim_runs(p_limit integer, p_stale_ms integer)
  RETURNS TABLE (org_id text, id text, resume_from integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE automation_runs r SET dispatched_at = now()
  WHERE (r.org_id, r.id) IN (
    SELECT c.org_id, c.id FROM automation_runs c
    WHERE c.status = 'pending'
      AND (c.dispatched_at IS NULL OR c.dispatched_at < now() - make_interval(secs => p_stale_ms / 1000.0))
    ORDER BY c.dispatched_at NULLS FIRST, c.id
    LIMIT p_limit FOR UPDATE SKIP LOCKED
  )
  RETURNING r.org_id, r.id, r.resume_from
$$;

-- Enabled schedule rules of every org, for the schedule tick (which then works inside each org's scope).
CREATE FUNCTION automation_schedules() RETURNS TABLE (org_id text, id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT a.org_id, a.id FROM automations a WHERE a.enabled AND a.trigger_type = 'schedule' ORDER BY a.org_id, a.id
$$;

REVOKE ALL ON FUNCTION automation_claim_triggers(integer), automation_claim_runs(integer, integer),
  automation_schedules() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION automation_claim_triggers(integer), automation_claim_runs(integer, integer),
  automation_schedules() TO opentill_app;

-- The events retention job keeps events still waiting in either queue.
CREATE OR REPLACE FUNCTION events_purge_expired(before_id text, older_than interval, batch integer) RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM events
    WHERE id IN (
      SELECT e.id FROM events e
      WHERE e.id < before_id
        AND e.created_at < now() - older_than
        AND NOT EXISTS (SELECT 1 FROM webhook_relay_queue r WHERE r.event_id = e.id)
        AND NOT EXISTS (SELECT 1 FROM automation_trigger_queue a WHERE a.event_id = e.id)
      ORDER BY e.id
      LIMIT batch
    )
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;
