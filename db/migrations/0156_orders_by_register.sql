-- Up Migration
-- GET /orders?register_id= finds a register's orders by the register (a paired till's sale) or by its shifts.
CREATE INDEX orders_register ON orders (org_id, register_id, id) WHERE register_id IS NOT NULL;
CREATE INDEX orders_shift ON orders (org_id, shift_id, id) WHERE shift_id IS NOT NULL;
