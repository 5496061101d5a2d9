-- Up Migration
-- Events are kept 30 days (DECISIONS.md: the events API serves every event of the org for 30 days); older ones are
-- deleted in batches by the retention job. An event still waiting in the webhook relay queue is kept whatever its
-- age: the queue would otherwise lose it (its row cascades), and an acknowledged event is never lost.
-- `before_id` bounds the walk on the primary key (event ids are ULIDs, so they sort by creation time); `created_at`
-- decides, so the API's window and the deletion agree whatever the clocks of the app and the server.
CREATE FUNCTION events_purge_expired(before_id text, older_than interval, batch integer) RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM events
    WHERE id IN (
      SELECT e.id FROM events e
      WHERE e.id < before_id
        AND e.created_at < now() - older_than
        AND NOT EXISTS (SELECT 1 FROM webhook_relay_queue r WHERE r.event_id = e.id)
      ORDER BY e.id
      LIMIT batch
    )
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;

REVOKE ALL ON FUNCTION events_purge_expired(text, interval, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION events_purge_expired(text, interval, integer) TO opentill_app;
