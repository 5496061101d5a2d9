-- Up Migration
-- An invitation names the e-mail, name and role of the account it will make; the account is made when the
-- invitation is accepted, not when a partner provisions the tenant, so provisioning never says whether an e-mail
-- is already registered (issue 14, docs/decisions.md).
ALTER TABLE invitations
  ADD COLUMN email text,
  ADD COLUMN name text NOT NULL DEFAULT '',
  ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'manager', 'staff')),
  ALTER COLUMN user_id DROP NOT NULL;
UPDATE invitations i SET email = u.email, name = u.name, role = u.role
  FROM users u WHERE u.id = i.user_id AND u.org_id = i.org_id;
ALTER TABLE invitations ALTER COLUMN email SET NOT NULL;

-- A pending invitation's user never had a password (it could not sign in, so nothing refers to it): it is made
-- again, under the same e-mail, when the invitation is accepted.
CREATE TEMPORARY TABLE pending_invitees ON COMMIT DROP AS
  SELECT u.id, u.org_id FROM users u JOIN invitations i ON i.user_id = u.id AND i.org_id = u.org_id
  WHERE i.accepted_at IS NULL AND u.password_hash IS NULL;
UPDATE invitations i SET user_id = NULL FROM pending_invitees p WHERE i.user_id = p.id AND i.org_id = p.org_id;
DELETE FROM users u USING pending_invitees p WHERE u.id = p.id AND u.org_id = p.org_id;
