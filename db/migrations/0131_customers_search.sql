-- Up Migration
-- A customer search matches the full name, e-mail and phone anywhere in the text, and the phone's digits: one
-- trigram index per field, combined in one bitmap, so a till's look-up costs what it finds, not the size of the
-- customer list (docs/benchmarks.md "Growth").
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX customers_name_trgm ON customers USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
CREATE INDEX customers_email_trgm ON customers USING gin (email gin_trgm_ops);
CREATE INDEX customers_phone_trgm ON customers USING gin (phone gin_trgm_ops);
CREATE INDEX customers_phone_key_trgm ON customers USING gin (phone_key gin_trgm_ops);
