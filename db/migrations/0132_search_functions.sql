-- Up Migration
-- Product and customer searches, run as the owner. Row-level security lets an index serve only leakproof
-- operators before the policy has been checked, and ILIKE and @> are not: under the app's role a search read every
-- row of the org whatever index there was (0130, 0131). These functions run as the owner, whom row-level security
-- does not bind, and hold the session's org themselves (current_setting('app.org_id'), which the app sets in every
-- transaction), so they reach no other org's rows. Each statement is built for the filters given and planned for
-- its values (EXECUTE … USING): pg_trgm estimates how many rows contain a text, so the planner uses the trigram
-- index for a rare text and walks the org in id order for a common one (docs/catalog.md "Finding a product").

-- GET /products with q (name or SKU containing it: p_like; a barcode equal to it: p_text) or barcode= (p_barcode),
-- and the list's other filters, one keyset page in id order.
CREATE FUNCTION products_search(
  p_text text, p_like text, p_barcode text,
  p_after text, p_category text, p_active boolean, p_sku text, p_limit integer)
  RETURNS SETOF products
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE
  base text := 'org_id = $1';
  ids text;
BEGIN
  IF p_after IS NOT NULL THEN base := base || ' AND id > $5'; END IF;
  IF p_category IS NOT NULL THEN base := base || ' AND category_id = $6'; END IF;
  IF p_active IS NOT NULL THEN base := base || ' AND is_active = $7'; END IF;
  IF p_sku IS NOT NULL THEN base := base || ' AND sku = $8'; END IF;
  IF p_barcode IS NOT NULL THEN base := base || ' AND barcodes @> ARRAY[$4]'; END IF;
  -- The planner has no estimate for one barcode among unique ones (it assumes 0.5% of the rows, and would walk
  -- the org in id order looking for a page of them): barcode matches are collected through the GIN index first
  -- (the OFFSET 0 subquery), then ordered.
  IF p_text IS NULL THEN
    ids := format('SELECT id FROM (SELECT id FROM products WHERE %s OFFSET 0) AS scanned ORDER BY id LIMIT $9', base);
  ELSE
    ids := format(
      '(SELECT id FROM products WHERE %1$s AND (name ILIKE $3 OR sku ILIKE $3) ORDER BY id LIMIT $9)
       UNION ALL
       (SELECT id FROM (SELECT id FROM products WHERE %1$s AND barcodes @> ARRAY[$2] OFFSET 0) AS scanned
        ORDER BY id LIMIT $9)', base);
  END IF;
  RETURN QUERY EXECUTE format('SELECT * FROM products WHERE org_id = $1 AND id IN (%s) ORDER BY id LIMIT $9', ids)
    USING current_setting('app.org_id', true), p_text, p_like, p_barcode, p_after, p_category, p_active, p_sku,
          p_limit;
END $$;

-- GET /customers?q=: the full name, e-mail or phone containing it (p_like), or the phone's digits (p_digits, a LIKE
-- pattern), one keyset page in id order.
CREATE FUNCTION customers_search(p_like text, p_digits text, p_after text, p_limit integer)
  RETURNS SETOF customers
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE
  matches text := '(first_name || '' '' || last_name) ILIKE $2 OR email ILIKE $2 OR phone ILIKE $2';
  base text := 'org_id = $1';
BEGIN
  IF p_digits IS NOT NULL THEN matches := matches || ' OR phone_key LIKE $3'; END IF;
  IF p_after IS NOT NULL THEN base := base || ' AND id > $4'; END IF;
  RETURN QUERY EXECUTE format('SELECT * FROM customers WHERE %s AND (%s) ORDER BY id LIMIT $5', base, matches)
    USING current_setting('app.org_id', true), p_like, p_digits, p_after, p_limit;
END $$;

REVOKE ALL ON FUNCTION products_search(text, text, text, text, text, boolean, text, integer),
  customers_search(text, text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION products_search(text, text, text, text, text, boolean, text, integer),
  customers_search(text, text, text, integer) TO opentill_app;
