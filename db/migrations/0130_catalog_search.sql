-- Up Migration
-- A product search (`q`) matches name and SKU anywhere in the text, case-insensitively, or a barcode exactly.
-- Trigram indexes serve `ILIKE '%…%'` (three characters or more), the GIN index on barcodes the exact test:
-- the three combine in one bitmap, so a search costs what it finds, not the size of the catalog
-- (docs/benchmarks.md "Growth"). pg_trgm is a trusted extension: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX products_name_trgm ON products USING gin (name gin_trgm_ops);
CREATE INDEX products_sku_trgm ON products USING gin (sku gin_trgm_ops);
