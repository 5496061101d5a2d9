-- Up Migration
CREATE TABLE modifier_groups (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  required boolean NOT NULL DEFAULT false,
  min_selections integer NOT NULL DEFAULT 0 CHECK (min_selections >= 0),
  -- NULL: no upper limit.
  max_selections integer CHECK (max_selections >= 1),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (max_selections IS NULL OR max_selections >= min_selections)
);
CREATE INDEX modifier_groups_org_id ON modifier_groups (org_id, id);
SELECT enable_org_rls('modifier_groups');

CREATE TABLE modifier_options (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  group_id text NOT NULL REFERENCES modifier_groups (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- Minor units; negative for options that take something away ("no cheese, -0.50").
  price_adjustment bigint NOT NULL DEFAULT 0,
  is_default boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX modifier_options_org_group ON modifier_options (org_id, group_id, id);
SELECT enable_org_rls('modifier_options');

CREATE TABLE product_modifier_groups (
  org_id text NOT NULL REFERENCES orgs (id),
  product_id text NOT NULL REFERENCES products (id),
  group_id text NOT NULL REFERENCES modifier_groups (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (product_id, group_id)
);
CREATE INDEX product_modifier_groups_org_product ON product_modifier_groups (org_id, product_id, position);
CREATE INDEX product_modifier_groups_org_group ON product_modifier_groups (org_id, group_id);
SELECT enable_org_rls('product_modifier_groups');
