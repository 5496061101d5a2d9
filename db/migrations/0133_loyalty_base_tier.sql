-- Up Migration
-- A member holds the program's base tier (the highest tier whose threshold is 0 or less) from the moment they
-- join (docs/loyalty.md); members joined before got none until their points first moved. A member whose tier is
-- still null has either never moved points or reached no tier, and then the program has no base tier either, so
-- giving every such member the base tier is what re-evaluating them would do.
UPDATE loyalty_members m
SET tier = base.name, updated_at = now()
FROM (
  SELECT p.org_id, p.id,
    (SELECT t->>'name' FROM jsonb_array_elements(p.tiers) AS t
     WHERE (t->>'threshold')::numeric <= 0
     ORDER BY (t->>'threshold')::numeric DESC LIMIT 1) AS name
  FROM loyalty_programs p
) AS base
WHERE m.org_id = base.org_id AND m.program_id = base.id AND m.tier IS NULL AND base.name IS NOT NULL;
