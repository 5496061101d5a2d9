-- Up Migration
-- Stock of one item (a product, or a variant of it) at one location. variant_id is '' for a product without
-- variants, so the natural key is a plain unique index that ON CONFLICT can name.
CREATE TABLE inventory_levels (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  product_id text NOT NULL REFERENCES products (id),
  variant_id text NOT NULL DEFAULT '',
  location_id text NOT NULL REFERENCES locations (id),
  on_hand integer NOT NULL DEFAULT 0,
  reorder_point integer CHECK (reorder_point >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX inventory_levels_item ON inventory_levels (org_id, product_id, variant_id, location_id);
CREATE INDEX inventory_levels_org_id ON inventory_levels (org_id, id);
CREATE INDEX inventory_levels_org_location ON inventory_levels (org_id, location_id, id);
SELECT enable_org_rls('inventory_levels');

-- The ledger: one row per change of a level, never updated. Sum of quantity per item and location = on_hand.
CREATE TABLE inventory_movements (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  product_id text NOT NULL,
  variant_id text NOT NULL DEFAULT '',
  location_id text NOT NULL,
  quantity integer NOT NULL,
  reason text NOT NULL,
  quantity_before integer NOT NULL,
  quantity_after integer NOT NULL,
  reference_type text,
  reference_id text,
  note text,
  actor_kind text NOT NULL,
  actor_user_id text,
  actor_client_id text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inventory_movements_org_id ON inventory_movements (org_id, id);
CREATE INDEX inventory_movements_org_item ON inventory_movements (org_id, product_id, location_id, id);
CREATE INDEX inventory_movements_org_reference ON inventory_movements (org_id, reference_type, reference_id);
SELECT enable_org_rls('inventory_movements');

CREATE TABLE inventory_transfers (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  from_location_id text NOT NULL REFERENCES locations (id),
  to_location_id text NOT NULL REFERENCES locations (id),
  status text NOT NULL DEFAULT 'completed' CHECK (status IN ('completed')),
  note text,
  lines jsonb NOT NULL,
  actor_user_id text,
  actor_client_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inventory_transfers_org_id ON inventory_transfers (org_id, id);
SELECT enable_org_rls('inventory_transfers');
