-- Up Migration
-- GET /reports/sales?group_by=hour reads completed orders and succeeded refunds of a period by their time.
CREATE INDEX orders_completed_at ON orders (org_id, completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX refunds_succeeded_at ON refunds (org_id, created_at) WHERE status = 'succeeded';
