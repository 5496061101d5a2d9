-- Up Migration
CREATE TABLE registers (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  location_id text NOT NULL REFERENCES locations (id),
  name text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registers_org_id ON registers (org_id, id);
CREATE INDEX registers_org_location ON registers (org_id, location_id, id);
SELECT enable_org_rls('registers');

-- A till session. The running cash totals live on the row so that recording cash and closing serialise on it:
-- an UPDATE ... WHERE status = 'open' either sees the shift open or does nothing.
CREATE TABLE shifts (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  register_id text NOT NULL REFERENCES registers (id),
  location_id text NOT NULL REFERENCES locations (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  opening_float bigint NOT NULL CHECK (opening_float >= 0),
  cash_in bigint NOT NULL DEFAULT 0,
  cash_out bigint NOT NULL DEFAULT 0,
  cash_sales bigint NOT NULL DEFAULT 0,
  cash_refunds bigint NOT NULL DEFAULT 0,
  expected_amount bigint,
  counted_amount bigint,
  variance bigint,
  opened_by text,
  closed_by text,
  opened_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  version integer NOT NULL DEFAULT 1
);
-- One open shift per register, whatever runs at once.
CREATE UNIQUE INDEX shifts_one_open ON shifts (org_id, register_id) WHERE status = 'open';
CREATE INDEX shifts_org_id ON shifts (org_id, id);
CREATE INDEX shifts_org_register ON shifts (org_id, register_id, id);
SELECT enable_org_rls('shifts');

-- Every cash movement of a shift: float top-ups and drops (in/out) and cash sales and refunds.
CREATE TABLE shift_cash_movements (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  shift_id text NOT NULL REFERENCES shifts (id),
  kind text NOT NULL CHECK (kind IN ('in', 'out', 'sale', 'refund')),
  amount bigint NOT NULL CHECK (amount > 0),
  reason text NOT NULL DEFAULT '',
  reference_type text,
  reference_id text,
  actor_user_id text,
  actor_client_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shift_cash_movements_shift ON shift_cash_movements (org_id, shift_id, id);
SELECT enable_org_rls('shift_cash_movements');
