-- Up Migration
-- Campaign uses of sales a till made offline (issue 27 item 3, docs/sync.md): counted like any sale's where the
-- limits allow, never refused; a use past a limit (a single-use voucher used twice offline, a campaign's or a
-- customer's limit reached) is left uncounted and answered as a conflict. Redemptions are recorded either way, so a
-- void gives back exactly what was counted.
CREATE FUNCTION campaign_claim_offline(p_order_id text, p_location_id text, p_customer_id text, p_currency text,
  p_order_total bigint, p_claims jsonb) RETURNS TABLE (campaign_id text, code text) LANGUAGE plpgsql AS $$
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
        campaign_id := c.campaign_id; code := 'customer_limit_reached'; RETURN NEXT;
      END IF;
    END IF;
    INSERT INTO campaign_redemptions (org_id, id, campaign_id, order_id, location_id, voucher_id, customer_id,
      discount_amount, order_total, currency, counted_usage, counted_customer)
    VALUES (org, c.redemption_id, c.campaign_id, p_order_id, p_location_id, voucher, p_customer_id, c.discount,
      p_order_total, p_currency, counted_usage, counted_customer);
  END LOOP;
END $$;
GRANT EXECUTE ON FUNCTION campaign_claim_offline(text, text, text, text, bigint, jsonb) TO opentill_app;
