-- Up Migration
-- One person, several orgs (issue 24 item 3): a person has one e-mail and one password; each membership of an org is
-- a `users` row with its role. `people` has no org_id (a stated exception of the row-level security walk): the app's
-- role cannot read it at all, only call the functions below, which answer no more than each entry point needs.
CREATE TABLE people (
  id text PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX people_email ON people (lower(email));
REVOKE ALL ON people FROM opentill_app;

ALTER TABLE users ADD COLUMN person_id text REFERENCES people (id);
INSERT INTO people (id, email, password_hash, created_at)
  SELECT 'per_' || substr(id, 5), email, password_hash, created_at FROM users WHERE password_hash IS NOT NULL;
UPDATE users SET person_id = 'per_' || substr(id, 5) WHERE password_hash IS NOT NULL;
ALTER TABLE users DROP COLUMN password_hash;
-- An e-mail is unique within an org now; the person is the platform-wide identity.
DROP INDEX users_email;
CREATE UNIQUE INDEX users_org_email ON users (org_id, lower(email));
CREATE UNIQUE INDEX users_org_person ON users (org_id, person_id);
CREATE INDEX users_person ON users (person_id);

DROP FUNCTION auth_org_of_email(text);

-- Sign-in: the person of an e-mail and the hash to check the password against.
CREATE FUNCTION auth_person_by_email(p_email text) RETURNS TABLE (id text, email text, password_hash text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT id, email, password_hash FROM people WHERE lower(email) = lower(p_email)
$$;
CREATE FUNCTION auth_person_by_id(p_id text) RETURNS TABLE (id text, email text, password_hash text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT id, email, password_hash FROM people WHERE id = p_id
$$;
-- The orgs a person belongs to, for the store picker and for what applies to every membership.
CREATE FUNCTION auth_memberships(p_person text)
  RETURNS TABLE (org_id text, org_name text, user_id text, active boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT u.org_id, o.name, u.id, u.deactivated_at IS NULL FROM users u JOIN orgs o ON o.id = u.org_id
  WHERE u.person_id = p_person ORDER BY o.name, u.org_id
$$;
CREATE FUNCTION auth_insert_person(p_id text, p_email text, p_hash text) RETURNS boolean
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  WITH made AS (
    INSERT INTO people (id, email, password_hash) VALUES (p_id, p_email, p_hash) ON CONFLICT DO NOTHING RETURNING 1
  )
  SELECT EXISTS (SELECT 1 FROM made)
$$;
CREATE FUNCTION auth_set_person_password(p_id text, p_hash text) RETURNS void
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE people SET password_hash = p_hash, updated_at = now() WHERE id = p_id
$$;
REVOKE ALL ON FUNCTION auth_person_by_email(text), auth_person_by_id(text), auth_memberships(text),
  auth_insert_person(text, text, text), auth_set_person_password(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_person_by_email(text), auth_person_by_id(text), auth_memberships(text),
  auth_insert_person(text, text, text), auth_set_person_password(text, text) TO opentill_app;
