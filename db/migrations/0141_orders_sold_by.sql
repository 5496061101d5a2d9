-- Up Migration
-- Who sold an order and at which till's register (issue 24): the signed-in user and, for a PIN session, its
-- register. Orders made before have neither, and reports say "unknown".
ALTER TABLE orders ADD COLUMN sold_by text, ADD COLUMN register_id text;
