-- Up Migration
-- Sign-in at the till (issue 24): registers paired with a device once, staff PINs, lock-outs, and sessions that
-- know the device and register they were opened on.
ALTER TABLE users ADD COLUMN pin_hash text;
ALTER TABLE auth_sessions ADD COLUMN device_id text, ADD COLUMN register_id text;
-- A session's scopes are its user's role's of the day (every refresh derives them): the stored copy goes.
ALTER TABLE auth_sessions DROP COLUMN scopes;
CREATE INDEX auth_sessions_org_device ON auth_sessions (org_id, device_id) WHERE device_id IS NOT NULL;

-- A till: made with a pairing code (6 digits, 10 minutes, once), then holding a device credential of which only
-- the SHA-256 is stored. `failed_pins` counts wrong PINs in a row across users; 20 lock the device.
CREATE TABLE devices (
  id text NOT NULL,
  org_id text NOT NULL REFERENCES orgs (id),
  register_id text NOT NULL,
  location_id text NOT NULL,
  name text NOT NULL DEFAULT '',
  pairing_code_hash text,
  pairing_expires_at timestamptz,
  token_hash text,
  created_by text,
  paired_at timestamptz,
  unpaired_at timestamptz,
  locked_at timestamptz,
  failed_pins integer NOT NULL DEFAULT 0,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, org_id)
);
CREATE UNIQUE INDEX devices_token ON devices (token_hash, org_id) WHERE token_hash IS NOT NULL;
-- Codes are short: a live one is unique across orgs, and an expired one gives its code back (devices_forget_…).
CREATE UNIQUE INDEX devices_pairing_code ON devices (pairing_code_hash) WHERE pairing_code_hash IS NOT NULL;
CREATE INDEX devices_pairing_expiry ON devices (pairing_expires_at) WHERE pairing_code_hash IS NOT NULL;
CREATE INDEX devices_org_register ON devices (org_id, register_id);
SELECT enable_org_rls('devices');

-- Wrong PINs of one user on one device; five lock that user there for 15 minutes.
CREATE TABLE pin_failures (
  org_id text NOT NULL REFERENCES orgs (id),
  device_id text NOT NULL,
  user_id text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  PRIMARY KEY (device_id, user_id, org_id)
);
SELECT enable_org_rls('pin_failures');

-- The unauthenticated pairing and PIN endpoints know only a code or a device credential.
CREATE FUNCTION device_org_of_pairing_code(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM devices WHERE pairing_code_hash = p_hash AND pairing_expires_at > now()
$$;
REVOKE ALL ON FUNCTION device_org_of_pairing_code(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION device_org_of_pairing_code(text) TO opentill_app;

CREATE FUNCTION device_org_of_token(p_hash text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT org_id FROM devices WHERE token_hash = p_hash
$$;
REVOKE ALL ON FUNCTION device_org_of_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION device_org_of_token(text) TO opentill_app;

-- Expired pairing codes, in every org, give their code back before a new one is drawn.
CREATE FUNCTION devices_forget_expired_pairings() RETURNS void
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public AS $$
  UPDATE devices SET pairing_code_hash = NULL WHERE pairing_code_hash IS NOT NULL AND pairing_expires_at <= now()
$$;
REVOKE ALL ON FUNCTION devices_forget_expired_pairings() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION devices_forget_expired_pairings() TO opentill_app;
