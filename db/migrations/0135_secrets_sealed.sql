-- Up Migration
-- Written by `opentill rotate-secrets-key` once every stored secret is sealed with SECRETS_KEY and bound to its
-- row: from then on the app refuses a secret that is not (docs/operations.md "Secrets at rest"), so a value
-- written into the database in clear, or copied from another row, is never trusted.
CREATE TABLE secrets_sealed (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  key_id text NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now()
);
-- The app reads it; only the owner (rotate-secrets-key) writes it, so the app role cannot turn the check off.
GRANT SELECT ON secrets_sealed TO opentill_app;
REVOKE INSERT, UPDATE, DELETE ON secrets_sealed FROM opentill_app;
