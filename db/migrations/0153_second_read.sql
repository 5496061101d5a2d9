-- Up Migration
-- A second read of 0148, 0149 and 0152.

-- The services move a price list, a markdown, a bundle or a modifier group themselves when they write its children
-- (a versioned update in the same transaction), so only the product's modifier groups, which a deleted group takes
-- away by cascade, need a trigger to move their parent: the others updated the parent once per child row.
DROP TRIGGER sync_touch_parent ON modifier_options;
DROP TRIGGER sync_touch_parent ON price_list_prices;
DROP TRIGGER sync_touch_parent ON bundle_components;
DROP TRIGGER sync_touch_parent ON markdown_products;

-- Conflicts are read by order (a resent batch answers each sale's), and listed by id with or without resolution.
DROP INDEX sync_conflicts_open;
CREATE INDEX sync_conflicts_order ON sync_conflicts (org_id, order_id);

-- One claim for both kinds of sale: a sale at the till refuses a use past a limit (p_refuse), a sale made offline
-- records it uncounted and answers which limits it went past.
DROP FUNCTION campaign_claim(text, text, text, text, bigint, jsonb);
DROP FUNCTION campaign_claim_offline(text, text, text, text, bigint, jsonb);
CREATE FUNCTION campaign_claim(p_order_id text, p_location_id text, p_customer_id text, p_currency text,
  p_order_total bigint, p_claims jsonb, p_refuse boolean) RETURNS TABLE (campaign_id text, code text)
  LANGUAGE plpgsql AS $$
-- The answer's columns are named as the tables' are: in a statement, a name is the column.
#variable_conflict use_column
DECLARE
  org text := current_setting('app.org_id', true);
  c record;
  lim record;
  counted_usage boolean;
  counted_customer boolean;
  voucher text;
BEGIN
  FOR c IN SELECT * FROM jsonb_to_recordset(p_claims)
    AS x(redemption_id text, campaign_id text, voucher_id text, discount bigint)
  LOOP
    SELECT cp.usage_limit, cp.per_customer_limit INTO lim FROM campaigns cp WHERE cp.org_id = org AND cp.id = c.campaign_id;
    IF NOT FOUND THEN
      campaign_id := c.campaign_id; code := 'unknown_campaign'; RETURN NEXT;
      CONTINUE;
    END IF;
    voucher := c.voucher_id;
    IF voucher IS NOT NULL THEN
      UPDATE campaign_vouchers v SET uses = v.uses + 1 WHERE v.org_id = org AND v.id = voucher AND v.uses < v.max_uses;
      IF NOT FOUND THEN
        IF p_refuse THEN RAISE EXCEPTION 'VOUCHER_USED_UP' USING ERRCODE = 'OT409', DETAIL = c.campaign_id; END IF;
        campaign_id := c.campaign_id; code := 'voucher_used_up'; RETURN NEXT;
        voucher := NULL;
      END IF;
    END IF;
    counted_usage := false;
    IF lim.usage_limit IS NOT NULL THEN
      UPDATE campaigns cp SET usage_count = cp.usage_count + 1
      WHERE cp.org_id = org AND cp.id = c.campaign_id AND cp.usage_count < cp.usage_limit;
      counted_usage := FOUND;
      IF NOT counted_usage THEN
        IF p_refuse THEN
          RAISE EXCEPTION 'CAMPAIGN_USAGE_LIMIT_REACHED' USING ERRCODE = 'OT409', DETAIL = c.campaign_id;
        END IF;
        campaign_id := c.campaign_id; code := 'campaign_limit_reached'; RETURN NEXT;
      END IF;
    END IF;
    counted_customer := false;
    IF lim.per_customer_limit IS NOT NULL AND p_customer_id IS NOT NULL THEN
      INSERT INTO campaign_customer_uses AS u (org_id, campaign_id, customer_id, uses)
      VALUES (org, c.campaign_id, p_customer_id, 1)
      ON CONFLICT (org_id, campaign_id, customer_id) DO UPDATE SET uses = u.uses + 1
      WHERE u.uses < lim.per_customer_limit;
      counted_customer := FOUND;
      IF NOT counted_customer THEN
        IF p_refuse THEN
          RAISE EXCEPTION 'CAMPAIGN_CUSTOMER_LIMIT_REACHED' USING ERRCODE = 'OT409', DETAIL = c.campaign_id;
        END IF;
        campaign_id := c.campaign_id; code := 'customer_limit_reached'; RETURN NEXT;
      END IF;
    END IF;
    INSERT INTO campaign_redemptions (org_id, id, campaign_id, order_id, location_id, voucher_id, customer_id,
      discount_amount, order_total, currency, counted_usage, counted_customer)
    VALUES (org, c.redemption_id, c.campaign_id, p_order_id, p_location_id, voucher, p_customer_id, c.discount,
      p_order_total, p_currency, counted_usage, counted_customer);
  END LOOP;
END $$;
GRANT EXECUTE ON FUNCTION campaign_claim(text, text, text, text, bigint, jsonb, boolean) TO opentill_app;
