-- One gateway role per database. Roles are cluster-wide, so the single lqe_gateway of 004 could
-- connect to and read every lqe database of the cluster. `lqe migrate` now calls
-- logs.configure_gateway_role with the role of this database (--gateway-role, by default
-- lqe_gateway_<database>) on every run; the role's name is recorded in logs.gateway_role.
CREATE TABLE logs.gateway_role (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  name text NOT NULL,
  configured_at timestamptz NOT NULL DEFAULT now()
);
-- 004's default privileges would let the gateway read it; it has no business doing so.
REVOKE ALL ON logs.gateway_role FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'lqe_gateway') THEN
    REVOKE ALL ON logs.gateway_role FROM lqe_gateway;
  END IF;
END
$$;

-- Creates the role when missing, lets it read the log tables, the catalogue and the bq
-- functions of this database, sets its session limits, and makes it (with the owner and the
-- migrating role) the only role allowed to connect. A previously configured role of this
-- database loses CONNECT. Idempotent.
CREATE FUNCTION logs.configure_gateway_role(role_name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  db text := current_database();
  owner_name text;
  previous text;
BEGIN
  IF role_name IS NULL OR role_name = '' OR octet_length(role_name) > 63 THEN
    RAISE EXCEPTION 'gateway role name must be 1 to 63 bytes, got "%"', role_name;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name) THEN
    BEGIN
      EXECUTE format('CREATE ROLE %I LOGIN', role_name);
    EXCEPTION
      -- Another database's migration created it concurrently.
      WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;

  EXECUTE format('GRANT USAGE ON SCHEMA logs TO %I', role_name);
  EXECUTE format('GRANT SELECT ON logs.edge, logs.postgres, logs.function_edge, '
                 'logs.function_events, logs.auth, logs.realtime, logs.storage, logs.restapi, '
                 'logs.pooler, logs.field_catalogue TO %I', role_name);
  -- The existing partitions, then the ones created later (as 004 does for lqe_gateway).
  EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA logs TO %I', role_name);
  EXECUTE format('REVOKE ALL ON logs.schema_migrations, logs.gateway_role FROM %I', role_name);
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA logs GRANT SELECT ON TABLES TO %I',
                 role_name);
  IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'bq') THEN
    EXECUTE format('GRANT USAGE ON SCHEMA bq TO %I', role_name);
    EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bq TO %I', role_name);
  END IF;

  -- Session limits: a gateway query sorts and hashes in at most 64 MB per node, spills at most
  -- 1 GB to disk, and is not JIT-compiled (compiling costs more than the short queries save).
  EXECUTE format('ALTER ROLE %I SET default_transaction_read_only = on', role_name);
  EXECUTE format('ALTER ROLE %I SET work_mem = %L', role_name, '64MB');
  EXECUTE format('ALTER ROLE %I SET jit = off', role_name);
  BEGIN
    EXECUTE format('ALTER ROLE %I SET temp_file_limit = %L', role_name, '1GB');
  EXCEPTION
    WHEN insufficient_privilege THEN
      RAISE WARNING 'temp_file_limit of role % not set: only a superuser may set it', role_name;
  END;

  SELECT pg_get_userbyid(d.datdba) INTO owner_name FROM pg_database d WHERE d.datname = db;
  EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', db);
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', db, owner_name);
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', db, current_user);
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', db, role_name);

  SELECT g.name INTO previous FROM logs.gateway_role g;
  IF previous IS NOT NULL AND previous <> role_name
     AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = previous) THEN
    EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM %I', db, previous);
  END IF;
  INSERT INTO logs.gateway_role (name) VALUES (role_name)
  ON CONFLICT (singleton) DO UPDATE SET name = excluded.name,
    configured_at = CASE WHEN gateway_role.name = excluded.name THEN gateway_role.configured_at
                         ELSE now() END;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.configure_gateway_role(text) FROM PUBLIC;
