-- Up Migration
-- Percentages in one unit everywhere (src/platform/money/percent.ts): percent × 10,000. Markdowns kept hundredths
-- of a percent; they now keep the same unit as tax rates and campaign rules.
-- The check on value was declared inline in 0014 and named by PostgreSQL: drop it by what it checks.
DO $$
DECLARE
  name text;
BEGIN
  SELECT c.conname INTO name FROM pg_constraint c
  WHERE c.conrelid = 'markdowns'::regclass AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%10000%';
  EXECUTE format('ALTER TABLE markdowns DROP CONSTRAINT %I', name);
END $$;
UPDATE markdowns SET value = value * 100 WHERE kind = 'percentage';
ALTER TABLE markdowns ADD CONSTRAINT markdowns_value_check
  CHECK (value > 0 AND (kind <> 'percentage' OR value <= 1000000));
