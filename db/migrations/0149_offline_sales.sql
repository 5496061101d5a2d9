-- Up Migration
-- Sales a till made offline and sent later (issue 27 items 2 to 5, docs/sync.md): each keeps the id the till gave it
-- (unique per org: the key that makes a resend a no-op) and when it was sold; what did not match the server is a
-- conflict to resolve; cash taken in a shift closed since counts for it as a late sale.
ALTER TABLE orders ADD COLUMN client_sale_id text, ADD COLUMN sold_at timestamptz;
CREATE UNIQUE INDEX orders_client_sale ON orders (org_id, client_sale_id) WHERE client_sale_id IS NOT NULL;

CREATE TABLE sync_conflicts (
  org_id text NOT NULL,
  id text NOT NULL,
  order_id text NOT NULL,
  client_sale_id text NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by text,
  resolution text,
  PRIMARY KEY (org_id, id)
);
SELECT enable_org_rls('sync_conflicts');
CREATE INDEX sync_conflicts_open ON sync_conflicts (org_id, id) WHERE resolved_at IS NULL;

ALTER TABLE shifts ADD COLUMN late_cash_sales bigint NOT NULL DEFAULT 0;
