-- Up Migration
-- Items nobody counts, "sold out here" (86), tips and the cash a customer hands over (issue 25 items 4 and 5).

-- A product or variant not tracked sells with no stock level and leaves no movement (a variant is tracked only
-- when its product is too). A line records whether its sale drew stock, so a void or a restock gives back only
-- what was taken, whatever the flags say later.
ALTER TABLE products ADD COLUMN track_inventory boolean NOT NULL DEFAULT true;
ALTER TABLE product_variants ADD COLUMN track_inventory boolean NOT NULL DEFAULT true;
ALTER TABLE order_lines ADD COLUMN tracked boolean NOT NULL DEFAULT true;

-- Sold out at one location, apart from stock: the whole product (variant_id '') or one variant.
CREATE TABLE sold_out_items (
  org_id text NOT NULL,
  location_id text NOT NULL,
  product_id text NOT NULL,
  variant_id text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, location_id, product_id, variant_id),
  FOREIGN KEY (location_id, org_id) REFERENCES locations (id, org_id) ON DELETE CASCADE,
  FOREIGN KEY (product_id, org_id) REFERENCES products (id, org_id) ON DELETE CASCADE
);
SELECT enable_org_rls('sold_out_items');

-- Tips: part of the order's total and of what its payments take, outside the taxable amount. A payment records the
-- tip it carries (adjustable before capture) and, for cash, what the customer handed over; a refund what of the
-- tip it returned.
ALTER TABLE orders ADD COLUMN tip_amount bigint NOT NULL DEFAULT 0 CHECK (tip_amount >= 0),
  ADD COLUMN tip_refunded bigint NOT NULL DEFAULT 0 CHECK (tip_refunded >= 0 AND tip_refunded <= tip_amount);
ALTER TABLE payments ADD COLUMN tip_amount bigint NOT NULL DEFAULT 0 CHECK (tip_amount >= 0),
  ADD COLUMN cash_tendered bigint CHECK (cash_tendered >= amount);
ALTER TABLE refunds ADD COLUMN tip_amount bigint NOT NULL DEFAULT 0 CHECK (tip_amount >= 0);

-- The store's cap on a tip, as a percentage of the order's total before the tip.
ALTER TABLE orgs ALTER COLUMN tips SET DEFAULT '{"enabled": false, "percentages": [], "base": "before_tax", "max_percent": 50}';
UPDATE orgs SET tips = tips || '{"max_percent": 50}' WHERE NOT tips ? 'max_percent';

-- Reports show tips apart from sales: by day and location, refunded, and by member of staff.
ALTER TABLE report_sales_daily ADD COLUMN tips bigint NOT NULL DEFAULT 0;
ALTER TABLE report_refunds_daily ADD COLUMN tips bigint NOT NULL DEFAULT 0;
ALTER TABLE report_staff_daily ADD COLUMN tips bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION report_add_order(o orders) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date := local_day(o.org_id, o.location_id, COALESCE(o.completed_at, now()));
BEGIN
  INSERT INTO report_sales_daily AS r (org_id, location_id, day, orders, gross, discounts, tax, total, tips)
  VALUES (o.org_id, o.location_id, d, 1, o.subtotal, o.discount_total, o.tax_total, o.total, o.tip_amount)
  ON CONFLICT (org_id, day, location_id) DO UPDATE SET orders = r.orders + 1, gross = r.gross + EXCLUDED.gross,
    discounts = r.discounts + EXCLUDED.discounts, tax = r.tax + EXCLUDED.tax, total = r.total + EXCLUDED.total,
    tips = r.tips + EXCLUDED.tips;
  INSERT INTO report_product_daily AS r (org_id, location_id, day, product_id, quantity, gross, discounts, tax, total)
  SELECT o.org_id, o.location_id, d, l.product_id, sum(l.quantity), sum(l.line_subtotal), sum(l.line_discount),
    sum(l.line_tax), sum(l.line_total)
  FROM order_lines l WHERE l.org_id = o.org_id AND l.order_id = o.id GROUP BY l.product_id
  ON CONFLICT (org_id, day, location_id, product_id) DO UPDATE SET quantity = r.quantity + EXCLUDED.quantity,
    gross = r.gross + EXCLUDED.gross, discounts = r.discounts + EXCLUDED.discounts, tax = r.tax + EXCLUDED.tax,
    total = r.total + EXCLUDED.total;
  -- Taxable: what each line's tax was computed on (its total less its tax, whether prices include tax or not).
  INSERT INTO report_tax_daily AS r (org_id, location_id, day, tax_rate_e4, taxable, tax)
  SELECT o.org_id, o.location_id, d, l.tax_rate_e4, sum(l.line_total - l.line_tax), sum(l.line_tax)
  FROM order_lines l WHERE l.org_id = o.org_id AND l.order_id = o.id GROUP BY l.tax_rate_e4
  ON CONFLICT (org_id, day, location_id, tax_rate_e4) DO UPDATE SET taxable = r.taxable + EXCLUDED.taxable,
    tax = r.tax + EXCLUDED.tax;
END $$;

CREATE OR REPLACE FUNCTION report_add_refund(f refunds) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  loc text := (SELECT location_id FROM orders WHERE org_id = f.org_id AND id = f.order_id);
BEGIN
  INSERT INTO report_refunds_daily AS r (org_id, location_id, day, refunds, amount, quantity, tips)
  VALUES (f.org_id, loc, local_day(f.org_id, loc, f.created_at), 1, f.amount,
    COALESCE((SELECT sum((x ->> 'quantity')::bigint) FROM jsonb_array_elements(f.lines) x), 0), f.tip_amount)
  ON CONFLICT (org_id, day, location_id) DO UPDATE SET refunds = r.refunds + 1, amount = r.amount + EXCLUDED.amount,
    quantity = r.quantity + EXCLUDED.quantity, tips = r.tips + EXCLUDED.tips;
END $$;

DROP FUNCTION report_add_staff(text, text, date, text, text, integer, bigint, bigint, integer, bigint, integer, bigint);
CREATE FUNCTION report_add_staff(p_org text, p_location text, p_day date, p_user text, p_register text,
  p_orders integer, p_discounts bigint, p_total bigint, p_tips bigint, p_refunds integer, p_refunded bigint,
  p_voids integer, p_voided bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_staff_daily AS r (org_id, location_id, day, user_id, register_id, orders, discounts, total, tips,
    refunds, refunded, voids, voided)
  VALUES (p_org, p_location, p_day, COALESCE(p_user, ''), COALESCE(p_register, ''), p_orders, p_discounts, p_total,
    p_tips, p_refunds, p_refunded, p_voids, p_voided)
  ON CONFLICT (org_id, day, location_id, user_id, register_id) DO UPDATE SET orders = r.orders + EXCLUDED.orders,
    discounts = r.discounts + EXCLUDED.discounts, total = r.total + EXCLUDED.total, tips = r.tips + EXCLUDED.tips,
    refunds = r.refunds + EXCLUDED.refunds, refunded = r.refunded + EXCLUDED.refunded,
    voids = r.voids + EXCLUDED.voids, voided = r.voided + EXCLUDED.voided
$$;

CREATE OR REPLACE FUNCTION report_staff_sale(o orders) RETURNS void LANGUAGE sql AS $$
  SELECT report_add_staff(o.org_id, o.location_id, local_day(o.org_id, o.location_id, COALESCE(o.completed_at, now())),
    o.sold_by, o.register_id, 1, o.discount_total, o.total, o.tip_amount, 0, 0, 0, 0)
$$;

CREATE OR REPLACE FUNCTION report_staff_refund(f refunds) RETURNS void LANGUAGE sql AS $$
  SELECT report_add_staff(f.org_id, o.location_id, local_day(f.org_id, o.location_id, f.created_at), f.refunded_by,
    f.register_id, 0, 0, 0, 0, 1, f.amount, 0, 0)
  FROM orders o WHERE o.org_id = f.org_id AND o.id = f.order_id
$$;

CREATE OR REPLACE FUNCTION report_staff_void(h order_status_history) RETURNS void LANGUAGE sql AS $$
  SELECT report_add_staff(h.org_id, o.location_id, local_day(h.org_id, o.location_id, h.created_at),
    CASE WHEN h.actor LIKE 'usr\_%' THEN h.actor END, h.register_id, 0, 0, 0, 0, 0, 0, 1, o.total)
  FROM orders o WHERE o.org_id = h.org_id AND o.id = h.order_id
$$;
