-- Up Migration
CREATE TABLE product_variants (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  product_id text NOT NULL REFERENCES products (id),
  name text NOT NULL,
  sku text NOT NULL,
  option_values jsonb NOT NULL DEFAULT '{}',
  -- NULL: the variant sells at its product's base price.
  price bigint CHECK (price >= 0),
  barcodes text[] NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX product_variants_org_sku ON product_variants (org_id, sku);
CREATE INDEX product_variants_org_product ON product_variants (org_id, product_id, id);
CREATE INDEX product_variants_barcodes ON product_variants USING gin (barcodes);
SELECT enable_org_rls('product_variants');

-- A SKU names one sellable thing in an org, product or variant. Both tables register their SKUs here, so the
-- unique index settles concurrent writers that each checked first and saw the SKU free.
CREATE TABLE catalog_skus (
  org_id text NOT NULL REFERENCES orgs (id),
  sku text NOT NULL,
  owner_id text NOT NULL,
  PRIMARY KEY (org_id, sku)
);
SELECT enable_org_rls('catalog_skus');

CREATE FUNCTION catalog_skus_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM catalog_skus WHERE org_id = OLD.org_id AND sku = OLD.sku AND owner_id = OLD.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO catalog_skus (org_id, sku, owner_id) VALUES (NEW.org_id, NEW.sku, NEW.id);
  END IF;
  RETURN NULL;
END $$;

INSERT INTO catalog_skus (org_id, sku, owner_id) SELECT org_id, sku, id FROM products;
CREATE TRIGGER products_skus AFTER INSERT OR DELETE OR UPDATE OF sku ON products
  FOR EACH ROW EXECUTE FUNCTION catalog_skus_sync();
CREATE TRIGGER product_variants_skus AFTER INSERT OR DELETE OR UPDATE OF sku ON product_variants
  FOR EACH ROW EXECUTE FUNCTION catalog_skus_sync();
