-- The gateway's read-only login role: it reads the log tables and the catalogue, nothing else.
-- Roles are cluster-wide, so another database's migration may have created it already.
DO $$
BEGIN
  CREATE ROLE lqe_gateway LOGIN;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;

GRANT USAGE ON SCHEMA logs TO lqe_gateway;
GRANT SELECT ON logs.edge, logs.postgres, logs.function_edge, logs.function_events, logs.auth,
  logs.realtime, logs.storage, logs.restapi, logs.pooler, logs.field_catalogue TO lqe_gateway;
-- Tables later migrations add to schema logs are readable too.
ALTER DEFAULT PRIVILEGES IN SCHEMA logs GRANT SELECT ON TABLES TO lqe_gateway;
