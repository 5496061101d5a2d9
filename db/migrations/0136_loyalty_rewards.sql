-- Up Migration
-- Rewards a program sells for points, at prices the merchant sets (docs/loyalty.md "Rewards"): an amount off an
-- order, or a single-use voucher of a campaign. A redemption names one and pays its price, never a number of
-- points the caller chooses.
CREATE TABLE loyalty_rewards (
  org_id text NOT NULL,
  id text NOT NULL,
  program_id text NOT NULL,
  name text NOT NULL,
  points bigint NOT NULL CHECK (points > 0),
  kind text NOT NULL CHECK (kind IN ('order_discount', 'voucher')),
  -- What an order_discount reward takes off, in minor units; the campaign a voucher reward issues from.
  amount bigint CHECK (amount > 0),
  campaign_id text,
  active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, program_id) REFERENCES loyalty_programs (org_id, id),
  CHECK ((kind = 'order_discount') = (amount IS NOT NULL)),
  CHECK ((kind = 'voucher') = (campaign_id IS NOT NULL))
);
CREATE INDEX loyalty_rewards_program ON loyalty_rewards (org_id, program_id, id);
SELECT enable_org_rls('loyalty_rewards');

-- Voiding an order gives back the points redeemed on it: a `reversal` movement names the redemption it gives back,
-- at most once.
ALTER TABLE loyalty_movements DROP CONSTRAINT loyalty_movements_kind_check;
ALTER TABLE loyalty_movements ADD CONSTRAINT loyalty_movements_kind_check
  CHECK (kind IN ('accrual', 'adjustment', 'redemption', 'expiry', 'refund', 'reversal'));
ALTER TABLE loyalty_movements ADD COLUMN reverses text;
CREATE UNIQUE INDEX loyalty_movements_reverses ON loyalty_movements (org_id, reverses) WHERE reverses IS NOT NULL;
CREATE INDEX loyalty_movements_order ON loyalty_movements (org_id, order_id) WHERE order_id IS NOT NULL;
