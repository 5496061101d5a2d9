-- Up Migration
-- The app now connects as its own login role (opentill_login, a member of opentill_app only; created and given
-- its password at start by src/platform/db/app-login.ts), never as the owner. The owner is therefore exempt from
-- row-level security as every table owner is, which is what the SECURITY DEFINER look-ups that cross orgs (login
-- by e-mail, refresh token by hash) need: FORCE and the owner_maintenance policies go. A RESET ROLE inside the
-- app's session returns to the login role, which row-level security still binds.
CREATE OR REPLACE FUNCTION enable_org_rls(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format($p$CREATE POLICY org_isolation ON %s
    USING (org_id = current_setting('app.org_id', true))
    WITH CHECK (org_id = current_setting('app.org_id', true))$p$, tbl);
END $$;

DO $$
DECLARE
  t regclass;
BEGIN
  FOR t IN SELECT polrelid::regclass FROM pg_policy WHERE polname = 'owner_maintenance' LOOP
    EXECUTE format('DROP POLICY owner_maintenance ON %s', t);
    EXECUTE format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY', t);
  END LOOP;
END $$;
