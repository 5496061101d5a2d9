-- Up Migration
CREATE TABLE price_lists (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  -- Opaque here: locations belong to another module. NULL: the list applies at every location.
  location_id text,
  starts_at timestamptz,
  ends_at timestamptz,
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX price_lists_org_id ON price_lists (org_id, id);
SELECT enable_org_rls('price_lists');

CREATE TABLE price_list_prices (
  org_id text NOT NULL REFERENCES orgs (id),
  price_list_id text NOT NULL REFERENCES price_lists (id) ON DELETE CASCADE,
  product_id text NOT NULL REFERENCES products (id),
  -- NULL: the price of the product and of every variant without its own entry in this list.
  variant_id text REFERENCES product_variants (id),
  price bigint NOT NULL CHECK (price >= 0),
  position integer NOT NULL
);
CREATE UNIQUE INDEX price_list_prices_entry ON price_list_prices (price_list_id, product_id, COALESCE(variant_id, ''));
CREATE INDEX price_list_prices_org_product ON price_list_prices (org_id, product_id);
SELECT enable_org_rls('price_list_prices');
