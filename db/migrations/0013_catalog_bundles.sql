-- Up Migration
CREATE TABLE bundles (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  product_id text NOT NULL REFERENCES products (id),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX bundles_org_product ON bundles (org_id, product_id);
SELECT enable_org_rls('bundles');

CREATE TABLE bundle_components (
  org_id text NOT NULL REFERENCES orgs (id),
  bundle_id text NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
  product_id text NOT NULL REFERENCES products (id),
  variant_id text REFERENCES product_variants (id),
  quantity integer NOT NULL CHECK (quantity > 0),
  position integer NOT NULL
);
CREATE UNIQUE INDEX bundle_components_entry ON bundle_components (bundle_id, product_id, COALESCE(variant_id, ''));
CREATE INDEX bundle_components_org_product ON bundle_components (org_id, product_id);
SELECT enable_org_rls('bundle_components');
