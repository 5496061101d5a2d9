-- Up Migration
-- Cancelling a lay-by refunds its card payments at the processor, which must not happen inside a transaction:
-- the lay-by is marked `cancelling` (refunds reserved) first, the processor is called, then it is `cancelled`.
ALTER TABLE laybys DROP CONSTRAINT laybys_status_check,
  ADD CONSTRAINT laybys_status_check CHECK (status IN ('open', 'cancelling', 'completed', 'cancelled'));
