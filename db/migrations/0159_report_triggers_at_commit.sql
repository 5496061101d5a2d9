-- Up Migration
-- The report triggers add every completed sale, payment, refund and void to a few rows per org, location and day,
-- which every sale of the day updates (docs/benchmarks.md "Offline sales, two at a time, and what a completed sale costs the database"):
-- 1. Fired as the row was written, they locked those rows from then until the commit, so an org's sales committed one
--    at a time however many ran at once. They fire at the commit now (deferred constraint triggers): the rows are
--    locked only for the commit itself. What they add is the same: a row trigger's WHEN and its NEW are those of the
--    write that queued it, and an order's lines are written in its insert's own statement.
-- 2. A LANGUAGE sql function that is not inlined (one returning a record, or one that writes) is parsed and planned
--    again on every call, where a plpgsql function's statements are planned once per connection, and each trigger
--    fired is a call of its own. So the staff figures of a completed order are written by the same function as its
--    other figures, with its local day read once; a payment's place and day are one statement; the helpers that
--    write are plpgsql (local_day, which the planner inlines, stays SQL). Same figures as before.

-- 2. The functions, planned once per connection.
CREATE OR REPLACE FUNCTION report_add_order(o orders) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
BEGIN
  -- The location's local day (as local_day(), written out so that its plan is kept).
  SELECT (COALESCE(o.completed_at, now()) AT TIME ZONE COALESCE(l.timezone, 'UTC'))::date INTO d
  FROM (SELECT 1) one LEFT JOIN locations l ON l.org_id = o.org_id AND l.id = o.location_id;
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
  -- The sale by the member of staff who made it and by register ('' when unknown).
  PERFORM report_add_staff(o.org_id, o.location_id, d, o.sold_by, o.register_id, 1, o.discount_total, o.total,
    o.tip_amount, 0, 0, 0, 0);
END $$;

-- report_add_order writes the staff figures now.
DROP TRIGGER report_staff_order_completed ON orders;
DROP TRIGGER report_staff_order_inserted_completed ON orders;
DROP FUNCTION report_staff_order_completed();
DROP FUNCTION report_staff_sale(orders);

CREATE OR REPLACE FUNCTION report_add_payment(p payments, captured bigint, refunded bigint, counted integer, at timestamptz)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_payments_daily AS r (org_id, location_id, day, method, register_id, payments, captured, refunded)
  SELECT p.org_id, place.loc, (at AT TIME ZONE COALESCE(l.timezone, 'UTC'))::date, p.method, place.register, counted,
    captured, refunded
  FROM (SELECT COALESCE((SELECT location_id FROM orders WHERE org_id = p.org_id AND id = p.order_id),
                        (SELECT location_id FROM laybys WHERE org_id = p.org_id AND id = p.layby_id)) AS loc,
               COALESCE((SELECT register_id FROM shifts WHERE org_id = p.org_id AND id = p.shift_id), '') AS register
       ) place
  LEFT JOIN locations l ON l.org_id = p.org_id AND l.id = place.loc
  ON CONFLICT (org_id, day, location_id, method, register_id) DO UPDATE SET payments = r.payments + EXCLUDED.payments,
    captured = r.captured + EXCLUDED.captured, refunded = r.refunded + EXCLUDED.refunded;
END $$;
DROP FUNCTION report_payment_place(payments);

CREATE OR REPLACE FUNCTION report_add_staff(p_org text, p_location text, p_day date, p_user text, p_register text,
  p_orders integer, p_discounts bigint, p_total bigint, p_tips bigint, p_refunds integer, p_refunded bigint,
  p_voids integer, p_voided bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_staff_daily AS r (org_id, location_id, day, user_id, register_id, orders, discounts, total, tips,
    refunds, refunded, voids, voided)
  VALUES (p_org, p_location, p_day, COALESCE(p_user, ''), COALESCE(p_register, ''), p_orders, p_discounts, p_total,
    p_tips, p_refunds, p_refunded, p_voids, p_voided)
  ON CONFLICT (org_id, day, location_id, user_id, register_id) DO UPDATE SET orders = r.orders + EXCLUDED.orders,
    discounts = r.discounts + EXCLUDED.discounts, total = r.total + EXCLUDED.total, tips = r.tips + EXCLUDED.tips,
    refunds = r.refunds + EXCLUDED.refunds, refunded = r.refunded + EXCLUDED.refunded,
    voids = r.voids + EXCLUDED.voids, voided = r.voided + EXCLUDED.voided;
END $$;

CREATE OR REPLACE FUNCTION report_staff_refund(f refunds) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_add_staff(f.org_id, o.location_id, local_day(f.org_id, o.location_id, f.created_at), f.refunded_by,
    f.register_id, 0, 0, 0, 0, 1, f.amount, 0, 0)
  FROM orders o WHERE o.org_id = f.org_id AND o.id = f.order_id;
END $$;

CREATE OR REPLACE FUNCTION report_staff_void(h order_status_history) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_add_staff(h.org_id, o.location_id, local_day(h.org_id, o.location_id, h.created_at),
    CASE WHEN h.actor LIKE 'usr\_%' THEN h.actor END, h.register_id, 0, 0, 0, 0, 0, 0, 1, o.total)
  FROM orders o WHERE o.org_id = h.org_id AND o.id = h.order_id;
END $$;

-- `opentill rebuild-reports`: every aggregate of one org, the staff figures included, computed again.
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
  DELETE FROM report_staff_daily WHERE org_id = org;
  FOR o IN SELECT * FROM orders WHERE org_id = org AND completed_at IS NOT NULL LOOP
    PERFORM report_add_order(o);
  END LOOP;
  FOR f IN SELECT * FROM refunds WHERE org_id = org AND status = 'succeeded' LOOP
    PERFORM report_add_refund(f);
    PERFORM report_staff_refund(f);
  END LOOP;
  PERFORM report_staff_void(h) FROM order_status_history h WHERE h.org_id = org AND h.to_status = 'voided';
  FOR p IN SELECT * FROM payments WHERE org_id = org AND captured_at IS NOT NULL LOOP
    PERFORM report_add_payment(p, p.amount, 0, 1, p.captured_at);
  END LOOP;
  PERFORM report_add_payment(paid, 0, r.amount, 0, r.created_at)
  FROM payment_refunds r JOIN payments paid ON paid.org_id = r.org_id AND paid.id = r.payment_id WHERE r.org_id = org;
END $$;
DROP FUNCTION report_rebuild_staff();

-- 1. Every report trigger fires at the commit.
DROP TRIGGER report_order_completed ON orders;
DROP TRIGGER report_order_inserted_completed ON orders;
DROP TRIGGER report_payment_captured ON payments;
DROP TRIGGER report_refund_succeeded ON refunds;
DROP TRIGGER report_staff_refund_succeeded ON refunds;
DROP TRIGGER report_payment_refund_changed ON payment_refunds;
DROP TRIGGER report_staff_voided ON order_status_history;
CREATE CONSTRAINT TRIGGER report_order_completed AFTER UPDATE OF status ON orders DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.status = 'completed' AND OLD.status IS DISTINCT FROM 'completed')
  EXECUTE FUNCTION report_order_completed();
-- A collected lay-by's order, and a sale a till made offline, are inserted completed, with their lines in the same
-- statement.
CREATE CONSTRAINT TRIGGER report_order_inserted_completed AFTER INSERT ON orders DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION report_order_completed();
CREATE CONSTRAINT TRIGGER report_payment_captured AFTER INSERT OR UPDATE OF captured_at ON payments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION report_payment_captured();
CREATE CONSTRAINT TRIGGER report_refund_succeeded AFTER UPDATE OF status ON refunds DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded')
  EXECUTE FUNCTION report_refund_succeeded();
CREATE CONSTRAINT TRIGGER report_staff_refund_succeeded AFTER UPDATE OF status ON refunds
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded')
  EXECUTE FUNCTION report_staff_refund_succeeded();
CREATE CONSTRAINT TRIGGER report_payment_refund_changed AFTER INSERT OR DELETE ON payment_refunds
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION report_payment_refund_changed();
CREATE CONSTRAINT TRIGGER report_staff_voided AFTER INSERT ON order_status_history DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.to_status = 'voided') EXECUTE FUNCTION report_staff_voided();
