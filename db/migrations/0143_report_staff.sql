-- Up Migration
-- Sales, refunds, voids and discounts by staff member and by register (issue 24 item 11), kept in step by triggers
-- like the other report aggregates (0115). A sale counts for who sold it (orders.sold_by) at its register; a refund
-- and a void for who made them, at theirs. '' is unknown: made before staff were recorded, or by an app.
ALTER TABLE refunds ADD COLUMN refunded_by text, ADD COLUMN register_id text;
ALTER TABLE order_status_history ADD COLUMN register_id text;

CREATE TABLE report_staff_daily (
  org_id text NOT NULL,
  location_id text NOT NULL,
  day date NOT NULL,
  user_id text NOT NULL,
  register_id text NOT NULL,
  orders integer NOT NULL DEFAULT 0,
  discounts bigint NOT NULL DEFAULT 0,
  total bigint NOT NULL DEFAULT 0,
  refunds integer NOT NULL DEFAULT 0,
  refunded bigint NOT NULL DEFAULT 0,
  voids integer NOT NULL DEFAULT 0,
  voided bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, day, location_id, user_id, register_id)
);
SELECT enable_org_rls('report_staff_daily');

CREATE OR REPLACE FUNCTION report_add_staff(p_org text, p_location text, p_day date, p_user text, p_register text,
  p_orders integer, p_discounts bigint, p_total bigint, p_refunds integer, p_refunded bigint, p_voids integer,
  p_voided bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_staff_daily AS r (org_id, location_id, day, user_id, register_id, orders, discounts, total,
    refunds, refunded, voids, voided)
  VALUES (p_org, p_location, p_day, COALESCE(p_user, ''), COALESCE(p_register, ''), p_orders, p_discounts, p_total,
    p_refunds, p_refunded, p_voids, p_voided)
  ON CONFLICT (org_id, day, location_id, user_id, register_id) DO UPDATE SET orders = r.orders + EXCLUDED.orders,
    discounts = r.discounts + EXCLUDED.discounts, total = r.total + EXCLUDED.total,
    refunds = r.refunds + EXCLUDED.refunds, refunded = r.refunded + EXCLUDED.refunded,
    voids = r.voids + EXCLUDED.voids, voided = r.voided + EXCLUDED.voided
$$;

CREATE OR REPLACE FUNCTION report_staff_sale(o orders) RETURNS void LANGUAGE sql AS $$
  SELECT report_add_staff(o.org_id, o.location_id, local_day(o.org_id, o.location_id, COALESCE(o.completed_at, now())),
    o.sold_by, o.register_id, 1, o.discount_total, o.total, 0, 0, 0, 0)
$$;

CREATE OR REPLACE FUNCTION report_staff_refund(f refunds) RETURNS void LANGUAGE sql AS $$
  SELECT report_add_staff(f.org_id, o.location_id, local_day(f.org_id, o.location_id, f.created_at), f.refunded_by,
    f.register_id, 0, 0, 0, 1, f.amount, 0, 0)
  FROM orders o WHERE o.org_id = f.org_id AND o.id = f.order_id
$$;

CREATE OR REPLACE FUNCTION report_staff_void(h order_status_history) RETURNS void LANGUAGE sql AS $$
  SELECT report_add_staff(h.org_id, o.location_id, local_day(h.org_id, o.location_id, h.created_at),
    CASE WHEN h.actor LIKE 'usr\_%' THEN h.actor END, h.register_id, 0, 0, 0, 0, 0, 1, o.total)
  FROM orders o WHERE o.org_id = h.org_id AND o.id = h.order_id
$$;

CREATE OR REPLACE FUNCTION report_staff_order_completed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_staff_sale(NEW);
  RETURN NULL;
END $$;
CREATE TRIGGER report_staff_order_completed AFTER UPDATE OF status ON orders FOR EACH ROW
  WHEN (NEW.status = 'completed' AND OLD.status IS DISTINCT FROM 'completed')
  EXECUTE FUNCTION report_staff_order_completed();
CREATE TRIGGER report_staff_order_inserted_completed AFTER INSERT ON orders FOR EACH ROW
  WHEN (NEW.status = 'completed') EXECUTE FUNCTION report_staff_order_completed();

CREATE OR REPLACE FUNCTION report_staff_refund_succeeded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_staff_refund(NEW);
  RETURN NULL;
END $$;
CREATE TRIGGER report_staff_refund_succeeded AFTER UPDATE OF status ON refunds FOR EACH ROW
  WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded')
  EXECUTE FUNCTION report_staff_refund_succeeded();

CREATE OR REPLACE FUNCTION report_staff_voided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_staff_void(NEW);
  RETURN NULL;
END $$;
CREATE TRIGGER report_staff_voided AFTER INSERT ON order_status_history FOR EACH ROW
  WHEN (NEW.to_status = 'voided') EXECUTE FUNCTION report_staff_voided();

-- `opentill rebuild-reports` computes this aggregate again too.
CREATE OR REPLACE FUNCTION report_rebuild_staff() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  org text := current_setting('app.org_id', true);
BEGIN
  DELETE FROM report_staff_daily WHERE org_id = org;
  PERFORM report_staff_sale(o) FROM orders o WHERE o.org_id = org AND o.completed_at IS NOT NULL;
  PERFORM report_staff_refund(f) FROM refunds f WHERE f.org_id = org AND f.status = 'succeeded';
  PERFORM report_staff_void(h) FROM order_status_history h WHERE h.org_id = org AND h.to_status = 'voided';
END $$;

-- Existing sales, refunds and voids, under an unknown member of staff (or the user who voided).
INSERT INTO report_staff_daily (org_id, location_id, day, user_id, register_id, orders, discounts, total)
  SELECT o.org_id, o.location_id, local_day(o.org_id, o.location_id, o.completed_at), '', '', count(*),
    sum(o.discount_total), sum(o.total)
  FROM orders o WHERE o.completed_at IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT DO NOTHING;
INSERT INTO report_staff_daily AS r (org_id, location_id, day, user_id, register_id, refunds, refunded)
  SELECT f.org_id, o.location_id, local_day(f.org_id, o.location_id, f.created_at), '', '', count(*), sum(f.amount)
  FROM refunds f JOIN orders o ON o.org_id = f.org_id AND o.id = f.order_id WHERE f.status = 'succeeded'
  GROUP BY 1, 2, 3
  ON CONFLICT (org_id, day, location_id, user_id, register_id) DO UPDATE SET refunds = EXCLUDED.refunds,
    refunded = EXCLUDED.refunded;
INSERT INTO report_staff_daily AS r (org_id, location_id, day, user_id, register_id, voids, voided)
  SELECT h.org_id, o.location_id, local_day(h.org_id, o.location_id, h.created_at),
    CASE WHEN h.actor LIKE 'usr\_%' THEN h.actor ELSE '' END, '', count(*), sum(o.total)
  FROM order_status_history h JOIN orders o ON o.org_id = h.org_id AND o.id = h.order_id WHERE h.to_status = 'voided'
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (org_id, day, location_id, user_id, register_id) DO UPDATE SET voids = EXCLUDED.voids,
    voided = EXCLUDED.voided;
