-- Up Migration
CREATE TABLE markdowns (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('percentage', 'amount')),
  -- percentage: hundredths of a percent (1250 = 12.5 %); amount: minor units off the unit price.
  value bigint NOT NULL CHECK (value > 0 AND (kind <> 'percentage' OR value <= 10000)),
  -- Exactly one target: a list of products (in markdown_products) or a category and its subcategories.
  category_id text REFERENCES categories (id),
  starts_at timestamptz,
  ends_at timestamptz,
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX markdowns_org_id ON markdowns (org_id, id);
SELECT enable_org_rls('markdowns');

CREATE TABLE markdown_products (
  org_id text NOT NULL REFERENCES orgs (id),
  markdown_id text NOT NULL REFERENCES markdowns (id) ON DELETE CASCADE,
  product_id text NOT NULL REFERENCES products (id),
  PRIMARY KEY (markdown_id, product_id)
);
CREATE INDEX markdown_products_org_product ON markdown_products (org_id, product_id);
SELECT enable_org_rls('markdown_products');
