-- Up Migration
-- Who sold an order, at which till's register and in which shift, and who approved what staff may not do alone
-- (issue 24): the signed-in user and, for a PIN session, its
-- register. Orders made before have neither, and reports say "unknown".
ALTER TABLE orders ADD COLUMN sold_by text, ADD COLUMN register_id text, ADD COLUMN shift_id text;

-- What staff may not do alone (issue 24 item 7): voids, refunds and order discounts above a share of the subtotal
-- need a manager's PIN on the same till, or a manager.
ALTER TABLE orgs ADD COLUMN manager_approval jsonb NOT NULL
  DEFAULT '{"voids": true, "refunds": true, "discount_percent_above": 20}';
-- The manager who approved a void, and a refund.
ALTER TABLE order_status_history ADD COLUMN approved_by text;
ALTER TABLE refunds ADD COLUMN approved_by text;
