-- Up Migration
-- Commit order for the outbox. ULID ids and a plain sequence are both assigned before commit, so a reader
-- paging by them can pass a row whose transaction commits later and never see it. Each row therefore records
-- the 64-bit id of the transaction that wrote it, and readers serve only rows below a horizon: the oldest
-- transaction still running, so every row that becomes visible later sorts after everything already served
-- and a resume from the last (txid, seq) never skips one.
ALTER TABLE events ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX events_org_commit ON events (org_id, txid, seq);
CREATE INDEX events_org_type_commit ON events (org_id, type, txid, seq);
-- The horizon: the oldest transaction id still in progress in this snapshot, ignoring transactions that
-- pg_stat_activity shows running in other databases of the cluster (they cannot write these rows, and a long
-- migration or import elsewhere must not stall the feed). Anything not positively known to be elsewhere counts.
CREATE FUNCTION events_horizon() RETURNS xid8
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  WITH snap AS (SELECT pg_current_snapshot() AS s),
  elsewhere AS (
    SELECT backend_xid FROM pg_stat_activity
    WHERE backend_xid IS NOT NULL AND datname IS NOT NULL AND datname <> current_database()
  )
  SELECT coalesce(
    (SELECT min(x) FROM snap, pg_snapshot_xip(snap.s) AS x WHERE NOT EXISTS (SELECT 1 FROM elsewhere WHERE elsewhere.backend_xid = x::xid)),
    (SELECT pg_snapshot_xmax(s) FROM snap)
  )
$$;
REVOKE ALL ON FUNCTION events_horizon() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION events_horizon() TO opentill_app;

-- The kitchen feed polls every org's order events at once: one query per process, not per screen.
CREATE INDEX events_kds_commit ON events (txid, seq)
  WHERE type IN ('order.created', 'order.updated', 'order.completed', 'order.voided');

-- The order events of every org committed after a cursor, for the one feed poller of a process. It crosses
-- orgs by design; the hub hands each event only to the screens of the event's own org.
CREATE FUNCTION kds_feed_after(p_txid xid8, p_seq bigint, p_limit integer)
  RETURNS TABLE (org_id text, id text, type text, data jsonb, created_at timestamptz, txid xid8, seq bigint)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT e.org_id, e.id, e.type, e.data, e.created_at, e.txid, e.seq
  FROM events e
  WHERE e.type IN ('order.created', 'order.updated', 'order.completed', 'order.voided')
    AND (e.txid, e.seq) > (p_txid, p_seq)
    AND e.txid < (SELECT events_horizon())
  ORDER BY e.txid, e.seq
  LIMIT p_limit
$$;

-- The newest order event every reader can already see: where a feed that starts now begins.
CREATE FUNCTION kds_feed_head() RETURNS TABLE (txid xid8, seq bigint)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT e.txid, e.seq
  FROM events e
  WHERE e.type IN ('order.created', 'order.updated', 'order.completed', 'order.voided')
    AND e.txid < (SELECT events_horizon())
  ORDER BY e.txid DESC, e.seq DESC
  LIMIT 1
$$;
REVOKE ALL ON FUNCTION kds_feed_after(xid8, bigint, integer), kds_feed_head() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION kds_feed_after(xid8, bigint, integer), kds_feed_head() TO opentill_app;

-- A random name for this database, so instances sharing one Redis but not one database (tests, staging
-- beside production) never mix their feeds.
CREATE TABLE kds_feed_namespace (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  namespace text NOT NULL
);
INSERT INTO kds_feed_namespace (namespace) VALUES (gen_random_uuid()::text);
GRANT SELECT ON kds_feed_namespace TO opentill_app;
