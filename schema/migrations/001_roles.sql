-- Schema logs, lqe's bookkeeping and its roles. Roles are cluster-wide; `lqe migrate` calls
-- logs.configure_gateway_role and logs.configure_ingest_role on every run with this database's
-- roles (--gateway-role, by default lqe_gateway_<database>; --ingest-role, by default
-- lqe_ingest_<database>), so each database has its own and no role reads another's logs.
CREATE SCHEMA IF NOT EXISTS logs;

COMMENT ON TABLE logs.schema_migrations IS
  'The migrations lqe migrate applied, with the SHA-256 of each file: an applied file that '
  'changed afterwards stops lqe migrate.';
COMMENT ON COLUMN logs.schema_migrations.version IS 'NNN of the file NNN_name.sql.';
COMMENT ON COLUMN logs.schema_migrations.name IS 'The migration file name.';
COMMENT ON COLUMN logs.schema_migrations.checksum IS 'SHA-256 (hex) of the file as applied.';
COMMENT ON COLUMN logs.schema_migrations.applied_at IS 'When it was applied.';

-- lqe_gateway: the read-only login role shared by the lqe databases of a cluster set up before
-- roles were per database (such a database keeps it as its recorded gateway role). Every
-- database lets it read schema logs; only the database whose gateway role it is lets it connect.
DO $$
BEGIN
  CREATE ROLE lqe_gateway LOGIN;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;
ALTER ROLE lqe_gateway SET default_transaction_read_only = on;
GRANT USAGE ON SCHEMA logs TO lqe_gateway;
ALTER DEFAULT PRIVILEGES IN SCHEMA logs GRANT SELECT ON TABLES TO lqe_gateway;

-- No role may create temporary tables in this database (TEMP is granted to PUBLIC by default;
-- lqe's database is its own).
DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$$;

CREATE TABLE logs.gateway_role (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  name text NOT NULL,
  configured_at timestamptz NOT NULL DEFAULT now()
);
-- The default privileges above would let the gateway read it; it has no business doing so.
REVOKE ALL ON logs.gateway_role FROM PUBLIC;
REVOKE ALL ON logs.gateway_role FROM lqe_gateway;
COMMENT ON TABLE logs.gateway_role IS
  'The read-only login role of this database''s gateway (one row), set by lqe migrate '
  '--gateway-role; only it, the owner and the migrating role may connect.';
COMMENT ON COLUMN logs.gateway_role.singleton IS 'Always true: the table has one row.';
COMMENT ON COLUMN logs.gateway_role.name IS 'The role name.';
COMMENT ON COLUMN logs.gateway_role.configured_at IS 'When this role was configured.';

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
  -- The existing partitions, then the ones created later (as lqe_gateway gets them above).
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

-- HTTP ingest's writer role (`ingest.dsn`); the gateway's query role is read-only. It may insert
-- into the log tables, read them (the duplicate check), keep the field catalogue and the conflict
-- counts, and create day partitions through logs.ensure_partition (SECURITY DEFINER: creating a
-- partition needs ownership of the parent table). The edge rollup trigger runs with its owner's
-- rights, so the role needs no rights on the rollups. Idempotent.
CREATE FUNCTION logs.configure_ingest_role(role_name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  db text := current_database();
BEGIN
  IF role_name IS NULL OR role_name = '' OR octet_length(role_name) > 63 THEN
    RAISE EXCEPTION 'ingest role name must be 1 to 63 bytes, got "%"', role_name;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name) THEN
    BEGIN
      EXECUTE format('CREATE ROLE %I LOGIN', role_name);
    EXCEPTION
      WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA logs TO %I', role_name);
  EXECUTE format('GRANT SELECT, INSERT ON logs.edge, logs.postgres, logs.function_edge, '
                 'logs.function_events, logs.auth, logs.realtime, logs.storage, logs.restapi, '
                 'logs.pooler TO %I', role_name);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE ON logs.field_catalogue, logs.catalogue_conflicts '
                 'TO %I', role_name);
  EXECUTE format('GRANT EXECUTE ON FUNCTION logs.ensure_partition(text, date) TO %I', role_name);
  -- Index expressions of promoted fields call the bq.* readers on every insert.
  EXECUTE format('GRANT USAGE ON SCHEMA bq TO %I', role_name);
  EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bq TO %I', role_name);
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', db, role_name);
END
$$;
REVOKE EXECUTE ON FUNCTION logs.configure_ingest_role(text) FROM PUBLIC;
