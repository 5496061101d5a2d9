-- Up Migration
-- A customer erased on request (issue 24 item 10): the row stays, so orders and payments keep their customer id and
-- amounts, with every personal field blanked; erased_at says when.
ALTER TABLE customers ADD COLUMN erased_at timestamptz;
