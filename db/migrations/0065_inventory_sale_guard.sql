-- Up Migration
-- A till's sale commits right behind its stock statement without reading the answer (docs/benchmarks.md, "Order
-- creation"), so the statement refuses itself, and with it the whole transaction, unless it applied cleanly; the
-- sale then takes the full path, which settles missing levels, shortfalls and alerts one by one.
CREATE FUNCTION inventory_sale_applied(applied boolean) RETURNS boolean
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT applied THEN
    RAISE EXCEPTION 'the sale needs the full stock path' USING ERRCODE = 'OTS01';
  END IF;
  RETURN true;
END $$;
