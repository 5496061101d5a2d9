-- Up Migration
-- Partner status and what it allows are the operator's (`opentill create-app --partner --plans …`): the plans a
-- partner app may provision tenants on. Partner apps made before keep what they could do.
ALTER TABLE oauth_apps ADD COLUMN partner_plans text[] NOT NULL DEFAULT '{}'
  CHECK (partner_plans <@ ARRAY['starter', 'growth', 'pro', 'enterprise']::text[]);
UPDATE oauth_apps SET partner_plans = ARRAY['starter', 'growth', 'pro', 'enterprise'] WHERE partner;
