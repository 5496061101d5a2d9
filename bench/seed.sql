-- Bench-only catalog: 20 categories and 10,000 products in one org ($1), run through the owner's connection.
-- The org is on an enterprise plan with limits far above what a benchmark sends: the rate limiter still runs
-- on every request (its cost is part of the figures) but never answers 429.
UPDATE orgs SET plan = 'enterprise', rate_limit_per_minute = 100000000, rate_limit_burst = 100000000 WHERE id = $1;

INSERT INTO categories (id, org_id, name, sort_order)
SELECT 'cat_bench_' || lpad(g::text, 4, '0'), $1, 'Category ' || g, g
FROM generate_series(1, 20) AS g;

INSERT INTO products (id, org_id, name, description, sku, barcodes, base_price, category_id, tags)
SELECT 'prod_bench_' || lpad(g::text, 6, '0'), $1, 'Product ' || g, 'Benchmark product number ' || g, 'BENCH-' || g,
       ARRAY['94' || lpad(g::text, 11, '0')], 100 + g, 'cat_bench_' || lpad((g % 20 + 1)::text, 4, '0'), ARRAY['bench', 'seeded']
FROM generate_series(1, 10000) AS g;
