-- Up Migration
-- Loyalty: a program per org (one active), members, and points as a ledger of lots that expire oldest first
-- (docs/loyalty.md).
CREATE TABLE loyalty_programs (
  org_id text NOT NULL,
  id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'inactive')),
  -- Points per major currency unit spent, times 10,000 (1 point per unit is 10000).
  points_per_unit_e4 bigint NOT NULL CHECK (points_per_unit_e4 > 0),
  rounding text NOT NULL CHECK (rounding IN ('floor', 'nearest', 'ceil')),
  excluded_product_ids text[] NOT NULL DEFAULT '{}',
  excluded_category_ids text[] NOT NULL DEFAULT '{}',
  expiry_days integer CHECK (expiry_days > 0),
  auto_enroll boolean NOT NULL,
  -- What one point is worth when redeemed as an amount off an order, in minor units times 10,000.
  point_value_e4 bigint NOT NULL CHECK (point_value_e4 >= 0),
  tier_basis text NOT NULL CHECK (tier_basis IN ('lifetime_points', 'lifetime_spend')),
  tiers jsonb NOT NULL DEFAULT '[]',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX loyalty_programs_one_active ON loyalty_programs (org_id) WHERE status = 'active';
SELECT enable_org_rls('loyalty_programs');

-- `balance` is the sum of the member's lots' `remaining`; both move together under the member's row lock.
CREATE TABLE loyalty_members (
  org_id text NOT NULL,
  id text NOT NULL,
  customer_id text NOT NULL,
  program_id text NOT NULL,
  balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  lifetime_points bigint NOT NULL DEFAULT 0,
  lifetime_spend bigint NOT NULL DEFAULT 0,
  tier text,
  joined_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, customer_id),
  FOREIGN KEY (org_id, program_id) REFERENCES loyalty_programs (org_id, id)
);
SELECT enable_org_rls('loyalty_members');

CREATE TABLE loyalty_lots (
  org_id text NOT NULL,
  id text NOT NULL,
  member_id text NOT NULL,
  points bigint NOT NULL CHECK (points > 0),
  remaining bigint NOT NULL CHECK (remaining >= 0 AND remaining <= points),
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, member_id) REFERENCES loyalty_members (org_id, id)
);
CREATE INDEX loyalty_lots_live ON loyalty_lots (org_id, member_id, expires_at NULLS LAST, id) WHERE remaining > 0;
CREATE INDEX loyalty_lots_due ON loyalty_lots (expires_at) WHERE remaining > 0 AND expires_at IS NOT NULL;
SELECT enable_org_rls('loyalty_lots');

CREATE TABLE loyalty_movements (
  org_id text NOT NULL,
  id text NOT NULL,
  member_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('accrual', 'adjustment', 'redemption', 'expiry', 'refund')),
  points bigint NOT NULL,
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL,
  order_id text,
  reward jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, member_id) REFERENCES loyalty_members (org_id, id)
);
CREATE INDEX loyalty_movements_member ON loyalty_movements (org_id, member_id, id);
SELECT enable_org_rls('loyalty_movements');

-- What an order earned and what its refunds took back so far, so refunds in any split take back exactly all.
CREATE TABLE loyalty_order_points (
  org_id text NOT NULL,
  order_id text NOT NULL,
  member_id text NOT NULL,
  earned bigint NOT NULL,
  base bigint NOT NULL,
  reversed bigint NOT NULL DEFAULT 0,
  base_reversed bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, order_id),
  FOREIGN KEY (org_id, member_id) REFERENCES loyalty_members (org_id, id)
);
SELECT enable_org_rls('loyalty_order_points');

-- The expiry job: members of any org with a lot past its expiry; it then expires them in each org's scope.
CREATE OR REPLACE FUNCTION loyalty_members_with_expired_lots(at timestamptz, batch integer)
  RETURNS TABLE (org_id text, member_id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT DISTINCT l.org_id, l.member_id FROM loyalty_lots l
  WHERE l.remaining > 0 AND l.expires_at <= at
  ORDER BY l.org_id, l.member_id
  LIMIT batch
$$;
REVOKE ALL ON FUNCTION loyalty_members_with_expired_lots(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION loyalty_members_with_expired_lots(timestamptz, integer) TO opentill_app;
