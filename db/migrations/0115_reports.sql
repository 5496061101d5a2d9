-- Up Migration
-- Reports read pre-aggregated daily figures that triggers keep in step with every committed change: an order that
-- completes, a refund that succeeds, a payment captured or refunded. Days are the selling location's local days
-- (docs/reports.md). Products and variants gain an optional cost for the inventory valuation.
ALTER TABLE products ADD COLUMN cost bigint CHECK (cost >= 0);
ALTER TABLE product_variants ADD COLUMN cost bigint CHECK (cost >= 0);

CREATE TABLE report_sales_daily (
  org_id text NOT NULL,
  location_id text NOT NULL,
  day date NOT NULL,
  orders integer NOT NULL,
  gross bigint NOT NULL,
  discounts bigint NOT NULL,
  tax bigint NOT NULL,
  total bigint NOT NULL,
  PRIMARY KEY (org_id, day, location_id)
);
SELECT enable_org_rls('report_sales_daily');

CREATE TABLE report_product_daily (
  org_id text NOT NULL,
  location_id text NOT NULL,
  day date NOT NULL,
  product_id text NOT NULL,
  quantity bigint NOT NULL,
  gross bigint NOT NULL,
  discounts bigint NOT NULL,
  tax bigint NOT NULL,
  total bigint NOT NULL,
  PRIMARY KEY (org_id, day, location_id, product_id)
);
SELECT enable_org_rls('report_product_daily');

CREATE TABLE report_tax_daily (
  org_id text NOT NULL,
  location_id text NOT NULL,
  day date NOT NULL,
  tax_rate_e4 integer NOT NULL,
  taxable bigint NOT NULL,
  tax bigint NOT NULL,
  PRIMARY KEY (org_id, day, location_id, tax_rate_e4)
);
SELECT enable_org_rls('report_tax_daily');

CREATE TABLE report_refunds_daily (
  org_id text NOT NULL,
  location_id text NOT NULL,
  day date NOT NULL,
  refunds integer NOT NULL,
  amount bigint NOT NULL,
  quantity bigint NOT NULL,
  PRIMARY KEY (org_id, day, location_id)
);
SELECT enable_org_rls('report_refunds_daily');

-- `register_id` is '' for payments taken outside a register shift.
CREATE TABLE report_payments_daily (
  org_id text NOT NULL,
  location_id text NOT NULL,
  day date NOT NULL,
  method text NOT NULL,
  register_id text NOT NULL,
  payments integer NOT NULL,
  captured bigint NOT NULL,
  refunded bigint NOT NULL,
  PRIMARY KEY (org_id, day, location_id, method, register_id)
);
SELECT enable_org_rls('report_payments_daily');

-- The local day of an instant at a location of an org (its IANA time zone; UTC for an unknown location).
CREATE OR REPLACE FUNCTION local_day(p_org text, p_location text, at timestamptz) RETURNS date
  LANGUAGE sql STABLE AS $$
  SELECT (at AT TIME ZONE COALESCE((SELECT timezone FROM locations WHERE org_id = p_org AND id = p_location), 'UTC'))::date
$$;

CREATE OR REPLACE FUNCTION report_add_order(o orders) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date := local_day(o.org_id, o.location_id, COALESCE(o.completed_at, now()));
BEGIN
  INSERT INTO report_sales_daily AS r (org_id, location_id, day, orders, gross, discounts, tax, total)
  VALUES (o.org_id, o.location_id, d, 1, o.subtotal, o.discount_total, o.tax_total, o.total)
  ON CONFLICT (org_id, day, location_id) DO UPDATE SET orders = r.orders + 1, gross = r.gross + EXCLUDED.gross,
    discounts = r.discounts + EXCLUDED.discounts, tax = r.tax + EXCLUDED.tax, total = r.total + EXCLUDED.total;
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

CREATE OR REPLACE FUNCTION report_order_completed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_add_order(NEW);
  RETURN NULL;
END $$;
CREATE TRIGGER report_order_completed AFTER UPDATE OF status ON orders FOR EACH ROW
  WHEN (NEW.status = 'completed' AND OLD.status IS DISTINCT FROM 'completed') EXECUTE FUNCTION report_order_completed();
-- A collected lay-by's order is inserted completed, with its lines in the same statement.
CREATE TRIGGER report_order_inserted_completed AFTER INSERT ON orders FOR EACH ROW
  WHEN (NEW.status = 'completed') EXECUTE FUNCTION report_order_completed();

CREATE OR REPLACE FUNCTION report_add_refund(f refunds) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  loc text := (SELECT location_id FROM orders WHERE org_id = f.org_id AND id = f.order_id);
BEGIN
  INSERT INTO report_refunds_daily AS r (org_id, location_id, day, refunds, amount, quantity)
  VALUES (f.org_id, loc, local_day(f.org_id, loc, f.created_at), 1, f.amount,
    COALESCE((SELECT sum((x ->> 'quantity')::bigint) FROM jsonb_array_elements(f.lines) x), 0))
  ON CONFLICT (org_id, day, location_id) DO UPDATE SET refunds = r.refunds + 1, amount = r.amount + EXCLUDED.amount,
    quantity = r.quantity + EXCLUDED.quantity;
END $$;

CREATE OR REPLACE FUNCTION report_refund_succeeded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_add_refund(NEW);
  RETURN NULL;
END $$;
CREATE TRIGGER report_refund_succeeded AFTER UPDATE OF status ON refunds FOR EACH ROW
  WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded') EXECUTE FUNCTION report_refund_succeeded();

CREATE OR REPLACE FUNCTION report_payment_place(p payments, OUT loc text, OUT register text) LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT location_id FROM orders WHERE org_id = p.org_id AND id = p.order_id),
                  (SELECT location_id FROM laybys WHERE org_id = p.org_id AND id = p.layby_id)),
         COALESCE((SELECT register_id FROM shifts WHERE org_id = p.org_id AND id = p.shift_id), '')
$$;

-- A capture counts on the day it was captured, a refund of it on the day it was refunded.
CREATE OR REPLACE FUNCTION report_add_payment(p payments, captured bigint, refunded bigint, counted integer, at timestamptz)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  place record := report_payment_place(p);
BEGIN
  INSERT INTO report_payments_daily AS r (org_id, location_id, day, method, register_id, payments, captured, refunded)
  VALUES (p.org_id, place.loc, local_day(p.org_id, place.loc, at), p.method, place.register, counted, captured,
    refunded)
  ON CONFLICT (org_id, day, location_id, method, register_id) DO UPDATE SET payments = r.payments + EXCLUDED.payments,
    captured = r.captured + EXCLUDED.captured, refunded = r.refunded + EXCLUDED.refunded;
END $$;

CREATE OR REPLACE FUNCTION report_payment_captured() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.captured_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.captured_at IS NULL) THEN
    PERFORM report_add_payment(NEW, NEW.amount, 0, 1, NEW.captured_at);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER report_payment_captured AFTER INSERT OR UPDATE OF captured_at ON payments FOR EACH ROW
  EXECUTE FUNCTION report_payment_captured();

-- A payment's share of a refund is a payment_refunds row from the moment it is reserved; a refund the processor
-- refused deletes it again, so the figure follows it both ways, on the day the row was made.
CREATE OR REPLACE FUNCTION report_payment_refund_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r payment_refunds := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  sign integer := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  PERFORM report_add_payment(p, 0, sign * r.amount, 0, r.created_at)
  FROM payments p WHERE p.org_id = r.org_id AND p.id = r.payment_id;
  RETURN NULL;
END $$;
CREATE TRIGGER report_payment_refund_changed AFTER INSERT OR DELETE ON payment_refunds FOR EACH ROW
  EXECUTE FUNCTION report_payment_refund_changed();

-- `opentill rebuild-reports`: the aggregates of one org computed again from the orders, refunds and payments.
CREATE OR REPLACE FUNCTION report_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  org text := current_setting('app.org_id', true);
  o orders;
  f refunds;
  p payments;
BEGIN
  DELETE FROM report_sales_daily WHERE org_id = org;
  DELETE FROM report_product_daily WHERE org_id = org;
  DELETE FROM report_tax_daily WHERE org_id = org;
  DELETE FROM report_refunds_daily WHERE org_id = org;
  DELETE FROM report_payments_daily WHERE org_id = org;
  FOR o IN SELECT * FROM orders WHERE org_id = org AND completed_at IS NOT NULL LOOP
    PERFORM report_add_order(o);
  END LOOP;
  FOR f IN SELECT * FROM refunds WHERE org_id = org AND status = 'succeeded' LOOP
    PERFORM report_add_refund(f);
  END LOOP;
  FOR p IN SELECT * FROM payments WHERE org_id = org AND captured_at IS NOT NULL LOOP
    PERFORM report_add_payment(p, p.amount, 0, 1, p.captured_at);
  END LOOP;
  PERFORM report_add_payment(paid, 0, r.amount, 0, r.created_at)
  FROM payment_refunds r JOIN payments paid ON paid.org_id = r.org_id AND paid.id = r.payment_id WHERE r.org_id = org;
END $$;

CREATE INDEX campaign_redemptions_created ON campaign_redemptions (org_id, created_at) WHERE released_at IS NULL;
