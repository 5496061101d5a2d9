-- Up Migration
CREATE TABLE gift_cards (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  code text NOT NULL,
  currency char(3) NOT NULL,
  initial_balance bigint NOT NULL CHECK (initial_balance >= 0),
  balance bigint NOT NULL CHECK (balance >= 0),
  status text NOT NULL CHECK (status IN ('active', 'depleted', 'disabled')),
  customer_id text REFERENCES customers (id),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX gift_cards_org_code ON gift_cards (org_id, code);
CREATE INDEX gift_cards_org_id ON gift_cards (org_id, id);
SELECT enable_org_rls('gift_cards');

CREATE TABLE gift_card_ledger (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  gift_card_id text NOT NULL REFERENCES gift_cards (id),
  kind text NOT NULL CHECK (kind IN ('issue', 'load', 'redeem', 'refund', 'disable')),
  amount bigint NOT NULL,
  balance_after bigint NOT NULL,
  reference_type text,
  reference_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gift_card_ledger_card ON gift_card_ledger (gift_card_id, id);
SELECT enable_org_rls('gift_card_ledger');

CREATE TABLE laybys (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  customer_id text NOT NULL REFERENCES customers (id),
  location_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'completed', 'cancelled')),
  currency char(3) NOT NULL,
  lines jsonb NOT NULL,
  subtotal bigint NOT NULL,
  discount_total bigint NOT NULL,
  tax_total bigint NOT NULL,
  total bigint NOT NULL,
  paid_total bigint NOT NULL DEFAULT 0,
  order_id text,
  note text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (paid_total <= total)
);
CREATE INDEX laybys_org_id ON laybys (org_id, id);
SELECT enable_org_rls('laybys');

-- A payment belongs to an order or to a lay-by (whose payments move to its order when it completes).
CREATE TABLE payments (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  order_id text REFERENCES orders (id),
  layby_id text REFERENCES laybys (id),
  method text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency char(3) NOT NULL,
  status text NOT NULL CHECK (status IN ('requires_capture', 'captured', 'voided', 'failed', 'partially_refunded', 'refunded')),
  refunded_amount bigint NOT NULL DEFAULT 0,
  processor text,
  processor_ref text,
  gift_card_id text REFERENCES gift_cards (id),
  shift_id text,
  failure_code text,
  failure_message text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  captured_at timestamptz,
  CHECK (refunded_amount <= amount),
  CHECK (order_id IS NOT NULL OR layby_id IS NOT NULL)
);
CREATE INDEX payments_org_id ON payments (org_id, id);
CREATE INDEX payments_order ON payments (order_id, id);
CREATE INDEX payments_layby ON payments (layby_id, id);
SELECT enable_org_rls('payments');

CREATE TABLE payment_refunds (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  payment_id text NOT NULL REFERENCES payments (id),
  refund_id text REFERENCES refunds (id),
  amount bigint NOT NULL CHECK (amount > 0),
  processor_ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_refunds_payment ON payment_refunds (payment_id);
SELECT enable_org_rls('payment_refunds');

CREATE TABLE payment_method_settings (
  org_id text PRIMARY KEY REFERENCES orgs (id),
  methods text[] NOT NULL,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT enable_org_rls('payment_method_settings');
