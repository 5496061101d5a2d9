-- Up Migration
-- The catalog a till carries (issue 27 item 1, docs/sync.md): each row of the large catalog collections records
-- the transaction that last wrote it (`sync_xid`, a row of a child table moves its parent's), and deletions leave a
-- tombstone. A snapshot is stamped with the oldest transaction still running when it was read (pg_snapshot_xmin):
-- everything older is in it, so `since=<that>` answers every row written from then on, some of them again, none
-- missed, whatever commits in whichever order. Counting nothing and locking nothing, it adds no contention to writes.
CREATE FUNCTION sync_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sync_xid := pg_current_xact_id();
  RETURN NEW;
END $$;

-- A child row written or deleted moves its parent: TG_ARGV[0] the parent table, TG_ARGV[1] the child's column
-- naming the parent's id.
CREATE FUNCTION sync_touch_parent() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  child jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
  EXECUTE format('UPDATE %I SET sync_xid = pg_current_xact_id() WHERE org_id = $1 AND id = $2', TG_ARGV[0])
    USING child ->> 'org_id', child ->> TG_ARGV[1];
  RETURN NULL;
END $$;

CREATE TABLE sync_deletions (
  org_id text NOT NULL,
  kind text NOT NULL,
  id text NOT NULL,
  sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (org_id, kind, id)
);
SELECT enable_org_rls('sync_deletions');
CREATE INDEX sync_deletions_since ON sync_deletions (org_id, sync_xid);

-- TG_ARGV[0] is the kind the snapshot names the collection by.
CREATE FUNCTION sync_record_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync_deletions (org_id, kind, id) VALUES (OLD.org_id, TG_ARGV[0], OLD.id)
  ON CONFLICT (org_id, kind, id) DO UPDATE SET sync_xid = pg_current_xact_id();
  RETURN NULL;
END $$;

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('products', 'products'), ('product_variants', 'variants'), ('categories', 'categories'),
    ('modifier_groups', 'modifier_groups'), ('price_lists', 'price_lists'), ('bundles', 'bundles'),
    ('markdowns', 'markdowns')) AS v(tbl, kind)
  LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id()', t.tbl);
    EXECUTE format('CREATE INDEX %I ON %I (org_id, sync_xid)', t.tbl || '_sync', t.tbl);
    EXECUTE format('CREATE TRIGGER sync_touch BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION sync_touch()', t.tbl);
    EXECUTE format(
      'CREATE TRIGGER sync_deleted AFTER DELETE ON %I FOR EACH ROW EXECUTE FUNCTION sync_record_deletion(%L)',
      t.tbl, t.kind);
  END LOOP;
  FOR t IN SELECT * FROM (VALUES
    ('modifier_options', 'modifier_groups', 'group_id'), ('product_modifier_groups', 'products', 'product_id'),
    ('price_list_prices', 'price_lists', 'price_list_id'), ('bundle_components', 'bundles', 'bundle_id'),
    ('markdown_products', 'markdowns', 'markdown_id')) AS v(tbl, parent, col)
  LOOP
    EXECUTE format(
      'CREATE TRIGGER sync_touch_parent AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW '
      'EXECUTE FUNCTION sync_touch_parent(%L, %L)', t.tbl, t.parent, t.col);
  END LOOP;
END $$;
