-- Up Migration
CREATE TABLE customers (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  email text,
  phone text,
  -- Normalised keys the upsert matches on: lower-cased e-mail, phone digits with a leading + kept.
  email_key text,
  phone_key text,
  preferences jsonb NOT NULL DEFAULT '{}',
  birthday date,
  loyalty_member_id text,
  note text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_org_email ON customers (org_id, email_key) WHERE email_key IS NOT NULL;
CREATE UNIQUE INDEX customers_org_phone ON customers (org_id, phone_key) WHERE phone_key IS NOT NULL;
CREATE INDEX customers_org_id ON customers (org_id, id);
SELECT enable_org_rls('customers');
