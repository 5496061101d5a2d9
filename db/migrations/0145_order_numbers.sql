-- Up Migration
-- Order numbers a person can read out (issue 25 item 1): sequential per org, unique, never reused. Each org has its
-- own PostgreSQL sequence, so taking a number locks nothing a concurrent sale waits on; a number taken by a sale that
-- then rolls back is skipped (a gap), never given again. Offline tills will reserve blocks from the same sequence.
ALTER TABLE orders ADD COLUMN number bigint;

-- Existing orders are numbered in the order they were made.
UPDATE orders o SET number = n.number
FROM (SELECT org_id, id, row_number() OVER (PARTITION BY org_id ORDER BY created_at, id) AS number FROM orders) n
WHERE o.org_id = n.org_id AND o.id = n.id;
ALTER TABLE orders ALTER COLUMN number SET NOT NULL;
CREATE UNIQUE INDEX orders_org_number ON orders (org_id, number);

-- The sequence of an org (org ids are lower-case letters, digits and an underscore: valid in an identifier).
CREATE FUNCTION order_number_sequence(p_org text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'order_numbers_' || p_org
$$;

CREATE FUNCTION order_numbers_create(p_org text, p_start bigint) RETURNS void
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF p_org !~ '^[a-z0-9_]+$' THEN RAISE EXCEPTION 'unexpected org id %', p_org; END IF;
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I START %s', order_number_sequence(p_org), p_start);
END $$;

-- A new org gets its sequence with its row.
CREATE FUNCTION order_numbers_for_new_org() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM order_numbers_create(NEW.id, 1);
  RETURN NULL;
END $$;
CREATE TRIGGER order_numbers_for_new_org AFTER INSERT ON orgs FOR EACH ROW EXECUTE FUNCTION order_numbers_for_new_org();

SELECT order_numbers_create(o.id, COALESCE((SELECT max(number) FROM orders WHERE org_id = o.id), 0) + 1) FROM orgs o;

-- The next number of the org the transaction is scoped to (only that org's: the app cannot move another's on).
CREATE FUNCTION order_number_next(p_org text) RETURNS bigint
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF p_org IS DISTINCT FROM current_setting('app.org_id', true) THEN
    RAISE EXCEPTION 'order numbers are taken in the scope of their own org';
  END IF;
  RETURN nextval(order_number_sequence(p_org)::regclass);
END $$;
REVOKE ALL ON FUNCTION order_numbers_create(text, bigint), order_number_next(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION order_number_next(text) TO opentill_app;
