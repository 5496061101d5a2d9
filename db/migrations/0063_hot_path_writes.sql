-- Up Migration
-- Cheaper writes on the hot path (docs/benchmarks.md, "Order creation").

-- 1. org_id is not a foreign key. Every insert of an org's row checked its key with `SELECT ... FOR KEY SHARE` on
--    the one orgs row, so every concurrent transaction of an org locked the same row: each lock rewrites the row's
--    lock word into a new multixact, and a sale (order, lines, history, event, movements) took thirteen of them.
--    Orgs are never deleted, and the row-level security policy of every table already refuses a row whose org_id
--    is not the session's org, which is always an existing org.
DO $$
DECLARE c record;
BEGIN
  FOR c IN
    SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
    WHERE contype = 'f' AND confrelid = 'orgs'::regclass
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tbl, c.conname);
  END LOOP;
END $$;

-- 2. The events API pages in commit order (events_org_commit, events_org_type_commit of 0060); the created_at
--    indexes of 0001 serve no query and cost two index entries per event.
DROP INDEX events_org_created;
DROP INDEX events_org_type_created;

-- 3. An order's event is a few kB of JSON: lz4 compresses it several times faster than the default pglz. The
--    embedded database is built without lz4 and keeps pglz.
DO $$
BEGIN
  ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL;
END $$;
