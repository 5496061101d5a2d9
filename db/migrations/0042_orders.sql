-- Up Migration
-- Money columns are integer minor units of the order's currency. captured_total and refunded_total are kept on the
-- order row, updated under its row lock, so balance and refund checks are one locked read.
CREATE TABLE orders (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  location_id text NOT NULL,
  customer_id text REFERENCES customers (id),
  layby_id text,
  status text NOT NULL CHECK (status IN ('open', 'completed', 'voided', 'partially_refunded', 'refunded')),
  currency char(3) NOT NULL,
  prices_include_tax boolean NOT NULL,
  subtotal bigint NOT NULL,
  discount_total bigint NOT NULL,
  tax_total bigint NOT NULL,
  total bigint NOT NULL,
  captured_total bigint NOT NULL DEFAULT 0,
  refunded_total bigint NOT NULL DEFAULT 0,
  discount jsonb,
  note text NOT NULL DEFAULT '',
  loyalty_points_earned integer NOT NULL DEFAULT 0,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK (refunded_total <= captured_total)
);
CREATE INDEX orders_org_id ON orders (org_id, id);
CREATE INDEX orders_org_status ON orders (org_id, status, id);
CREATE INDEX orders_org_customer ON orders (org_id, customer_id, id);
CREATE INDEX orders_org_location ON orders (org_id, location_id, id);
SELECT enable_org_rls('orders');

CREATE TABLE order_lines (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  order_id text NOT NULL REFERENCES orders (id),
  position integer NOT NULL,
  product_id text NOT NULL,
  variant_id text,
  name text NOT NULL DEFAULT '',
  quantity integer NOT NULL CHECK (quantity > 0),
  base_price bigint NOT NULL,
  unit_price bigint NOT NULL,
  modifiers jsonb NOT NULL DEFAULT '[]',
  note text NOT NULL DEFAULT '',
  tax_rate_e4 integer NOT NULL,
  line_subtotal bigint NOT NULL,
  line_discount bigint NOT NULL,
  line_tax bigint NOT NULL,
  line_total bigint NOT NULL,
  refunded_quantity integer NOT NULL DEFAULT 0,
  refunded_amount bigint NOT NULL DEFAULT 0,
  CHECK (refunded_quantity <= quantity)
);
CREATE INDEX order_lines_order ON order_lines (order_id, position);
SELECT enable_org_rls('order_lines');

CREATE TABLE order_status_history (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  order_id text NOT NULL REFERENCES orders (id),
  from_status text,
  to_status text NOT NULL,
  reason text NOT NULL DEFAULT '',
  actor text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX order_status_history_order ON order_status_history (order_id, id);
SELECT enable_org_rls('order_status_history');

-- A refund reserves its amount while `pending` (the processor is called outside the transaction), so refunds
-- racing refunds can never pass captured_total together.
CREATE TABLE refunds (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  order_id text NOT NULL REFERENCES orders (id),
  amount bigint NOT NULL CHECK (amount > 0),
  reason text NOT NULL,
  restock boolean NOT NULL,
  lines jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  failure_reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refunds_order ON refunds (order_id, id);
SELECT enable_org_rls('refunds');
