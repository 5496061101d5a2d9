-- Up Migration
CREATE TABLE categories (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  parent_id text REFERENCES categories (id),
  sort_order integer NOT NULL DEFAULT 0,
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX categories_org_id ON categories (org_id, id);
CREATE INDEX categories_org_parent ON categories (org_id, parent_id);
SELECT enable_org_rls('categories');

CREATE TABLE products (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  sku text NOT NULL,
  barcodes text[] NOT NULL DEFAULT '{}',
  base_price bigint NOT NULL DEFAULT 0 CHECK (base_price >= 0),
  category_id text REFERENCES categories (id),
  tags text[] NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX products_org_sku ON products (org_id, sku);
CREATE INDEX products_org_id ON products (org_id, id);
CREATE INDEX products_org_category ON products (org_id, category_id, id);
CREATE INDEX products_barcodes ON products USING gin (barcodes);
SELECT enable_org_rls('products');
