-- Up Migration
-- Campaigns: discount rules with conditions, a state moved by requests and by time, vouchers, and the uses that
-- count against their limits (docs/campaigns.md).
CREATE TABLE campaigns (
  org_id text NOT NULL,
  id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'scheduled', 'active', 'paused', 'ended')),
  priority integer NOT NULL DEFAULT 0,
  stacking text NOT NULL DEFAULT 'stackable' CHECK (stacking IN ('exclusive', 'stackable')),
  stacking_class text NOT NULL DEFAULT 'default',
  starts_at timestamptz,
  ends_at timestamptz,
  conditions jsonb NOT NULL DEFAULT '{}',
  rules jsonb NOT NULL,
  requires_voucher boolean NOT NULL DEFAULT false,
  usage_limit integer CHECK (usage_limit > 0),
  usage_count integer NOT NULL DEFAULT 0 CHECK (usage_count >= 0),
  per_customer_limit integer CHECK (per_customer_limit > 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  CHECK (usage_limit IS NULL OR usage_count <= usage_limit),
  CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX campaigns_live ON campaigns (org_id, priority DESC, id) WHERE status IN ('scheduled', 'active', 'paused');
-- The time-driven moves look across orgs for what is due.
CREATE INDEX campaigns_due_start ON campaigns (starts_at) WHERE status = 'scheduled';
CREATE INDEX campaigns_due_end ON campaigns (ends_at) WHERE status IN ('scheduled', 'active', 'paused');
SELECT enable_org_rls('campaigns');

-- A voucher code of a campaign; `code_key` is the code upper-cased, unique per org so a till may type it in any case.
CREATE TABLE campaign_vouchers (
  org_id text NOT NULL,
  id text NOT NULL,
  campaign_id text NOT NULL,
  code text NOT NULL,
  code_key text NOT NULL,
  max_uses integer NOT NULL DEFAULT 1 CHECK (max_uses > 0),
  uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
  customer_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, code_key),
  FOREIGN KEY (org_id, campaign_id) REFERENCES campaigns (org_id, id) ON DELETE CASCADE,
  CHECK (uses <= max_uses)
);
CREATE INDEX campaign_vouchers_campaign ON campaign_vouchers (org_id, campaign_id, id);
SELECT enable_org_rls('campaign_vouchers');

-- One campaign's discount on one created order. Voiding the order sets `released_at`, which gives the use back.
CREATE TABLE campaign_redemptions (
  org_id text NOT NULL,
  id text NOT NULL,
  campaign_id text NOT NULL,
  order_id text NOT NULL,
  location_id text NOT NULL,
  voucher_id text,
  customer_id text,
  discount_amount bigint NOT NULL CHECK (discount_amount >= 0),
  order_total bigint NOT NULL,
  currency text NOT NULL,
  -- Which counters the claim moved, so a release moves back exactly those.
  counted_usage boolean NOT NULL,
  counted_customer boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  released_at timestamptz,
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, order_id, campaign_id),
  FOREIGN KEY (org_id, campaign_id) REFERENCES campaigns (org_id, id) ON DELETE CASCADE
);
CREATE INDEX campaign_redemptions_campaign ON campaign_redemptions (org_id, campaign_id) WHERE released_at IS NULL;
SELECT enable_org_rls('campaign_redemptions');

-- A customer's uses of a campaign with a per-customer limit: a counter row that a conditional upsert moves, so
-- concurrent orders of one customer cannot both take the last use.
CREATE TABLE campaign_customer_uses (
  org_id text NOT NULL,
  campaign_id text NOT NULL,
  customer_id text NOT NULL,
  uses integer NOT NULL CHECK (uses >= 0),
  PRIMARY KEY (org_id, campaign_id, customer_id),
  FOREIGN KEY (org_id, campaign_id) REFERENCES campaigns (org_id, id) ON DELETE CASCADE
);
SELECT enable_org_rls('campaign_customer_uses');

-- The time-driven moves: which campaigns of any org are due to start or end. The job then moves each inside its
-- org's scope, so the move and its event commit together under row-level security.
CREATE OR REPLACE FUNCTION campaigns_due(at timestamptz, batch integer)
  RETURNS TABLE (org_id text, id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT c.org_id, c.id FROM campaigns c
  WHERE (c.status = 'scheduled' AND c.starts_at <= at)
     OR (c.status IN ('scheduled', 'active', 'paused') AND c.ends_at <= at)
  ORDER BY c.org_id, c.id
  LIMIT batch
$$;
REVOKE ALL ON FUNCTION campaigns_due(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION campaigns_due(timestamptz, integer) TO opentill_app;

-- An order's uses of its campaigns, in the order's transaction, as one statement (so order creation keeps its one
-- round trip): a voucher's use, the campaign's total and the customer's count each move only while under their
-- limit, else the statement fails with SQLSTATE OT409 and the limit's error code as its message, and the whole
-- order rolls back. Runs as the caller: row-level security applies.
CREATE OR REPLACE FUNCTION campaign_claim(p_order_id text, p_location_id text, p_customer_id text, p_currency text,
  p_order_total bigint, p_claims jsonb) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  org text := current_setting('app.org_id', true);
  c record;
  lim record;
  counted_usage boolean;
  counted_customer boolean;
BEGIN
  FOR c IN SELECT * FROM jsonb_to_recordset(p_claims)
    AS x(redemption_id text, campaign_id text, voucher_id text, discount bigint)
  LOOP
    SELECT usage_limit, per_customer_limit INTO lim FROM campaigns WHERE org_id = org AND id = c.campaign_id;
    IF c.voucher_id IS NOT NULL THEN
      UPDATE campaign_vouchers SET uses = uses + 1 WHERE org_id = org AND id = c.voucher_id AND uses < max_uses;
      IF NOT FOUND THEN RAISE EXCEPTION 'VOUCHER_USED_UP' USING ERRCODE = 'OT409', DETAIL = c.campaign_id; END IF;
    END IF;
    counted_usage := lim.usage_limit IS NOT NULL;
    IF counted_usage THEN
      UPDATE campaigns SET usage_count = usage_count + 1
      WHERE org_id = org AND id = c.campaign_id AND usage_count < usage_limit;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'CAMPAIGN_USAGE_LIMIT_REACHED' USING ERRCODE = 'OT409', DETAIL = c.campaign_id;
      END IF;
    END IF;
    counted_customer := lim.per_customer_limit IS NOT NULL AND p_customer_id IS NOT NULL;
    IF counted_customer THEN
      INSERT INTO campaign_customer_uses AS u (org_id, campaign_id, customer_id, uses)
      VALUES (org, c.campaign_id, p_customer_id, 1)
      ON CONFLICT (org_id, campaign_id, customer_id) DO UPDATE SET uses = u.uses + 1
      WHERE u.uses < lim.per_customer_limit;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'CAMPAIGN_CUSTOMER_LIMIT_REACHED' USING ERRCODE = 'OT409', DETAIL = c.campaign_id;
      END IF;
    END IF;
    INSERT INTO campaign_redemptions (org_id, id, campaign_id, order_id, location_id, voucher_id, customer_id,
      discount_amount, order_total, currency, counted_usage, counted_customer)
    VALUES (org, c.redemption_id, c.campaign_id, p_order_id, p_location_id, c.voucher_id, p_customer_id, c.discount,
      p_order_total, p_currency, counted_usage, counted_customer);
  END LOOP;
  RETURN jsonb_array_length(p_claims);
END $$;

-- Voiding an order gives its campaign uses back, once: only redemptions not yet released are released.
CREATE OR REPLACE FUNCTION campaign_release(p_order_id text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  org text := current_setting('app.org_id', true);
  r record;
  n integer := 0;
BEGIN
  FOR r IN UPDATE campaign_redemptions SET released_at = now()
    WHERE org_id = org AND order_id = p_order_id AND released_at IS NULL
    RETURNING campaign_id, voucher_id, customer_id, counted_usage, counted_customer
  LOOP
    n := n + 1;
    IF r.voucher_id IS NOT NULL THEN
      UPDATE campaign_vouchers SET uses = uses - 1 WHERE org_id = org AND id = r.voucher_id AND uses > 0;
    END IF;
    IF r.counted_usage THEN
      UPDATE campaigns SET usage_count = usage_count - 1 WHERE org_id = org AND id = r.campaign_id AND usage_count > 0;
    END IF;
    IF r.counted_customer THEN
      UPDATE campaign_customer_uses SET uses = uses - 1
      WHERE org_id = org AND campaign_id = r.campaign_id AND customer_id = r.customer_id AND uses > 0;
    END IF;
  END LOOP;
  RETURN n;
END $$;
GRANT EXECUTE ON FUNCTION campaign_claim(text, text, text, text, bigint, jsonb), campaign_release(text) TO opentill_app;
