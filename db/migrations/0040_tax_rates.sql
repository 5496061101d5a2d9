-- Up Migration
-- Tax rates of an org. `rate_e4` is the percentage times 10,000 (15.0000 % = 150000), an exact integer form of a
-- decimal percentage with up to four decimals. A rate applies to every product, or to listed categories/products.
CREATE TABLE tax_rates (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  rate_e4 integer NOT NULL CHECK (rate_e4 >= 0 AND rate_e4 <= 1000000),
  applies_to text NOT NULL CHECK (applies_to IN ('all', 'categories', 'products')),
  category_ids text[] NOT NULL DEFAULT '{}',
  product_ids text[] NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tax_rates_org_id ON tax_rates (org_id, id);
SELECT enable_org_rls('tax_rates');
