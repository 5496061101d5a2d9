-- Up Migration
-- PGlite runs no autovacuum, so nothing keeps its planner statistics fresh and plans degrade as an embedded
-- store grows. The app role may run ANALYZE itself where PostgreSQL has the pg_maintain role (17 and later,
-- which PGlite is); on older servers (Debian's 15) autovacuum does this and nothing is granted.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pg_maintain')
     AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'opentill_app') THEN
    EXECUTE 'GRANT pg_maintain TO opentill_app';
  END IF;
END
$$;
