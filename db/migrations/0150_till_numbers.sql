-- Up Migration
-- Order numbers a till holds for the sales it makes offline (issue 27 item 2, docs/sync.md): taken from the org's
-- sequence like any sale's (so never given twice), kept here for the till until a synced sale uses one.
CREATE TABLE till_numbers (
  org_id text NOT NULL,
  number bigint NOT NULL,
  device_id text NOT NULL,
  reserved_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz,
  PRIMARY KEY (org_id, number)
);
SELECT enable_org_rls('till_numbers');
CREATE INDEX till_numbers_unused ON till_numbers (org_id, device_id) WHERE used_at IS NULL;
