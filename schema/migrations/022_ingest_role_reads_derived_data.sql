-- The ingest role's rights for what an insert into a log table now runs: the promoted-field
-- indexes (021) evaluate bq.* reads, and the edge rollup trigger (020) writes the rollup tables.
-- The trigger runs with its owner's rights, so the ingest role needs no rights on the rollups
-- (nor can it write them except through an insert into logs.edge).
ALTER FUNCTION logs.add_edge_rollups() SECURITY DEFINER;
ALTER FUNCTION logs.add_edge_rollups() SET search_path = pg_catalog, pg_temp;

CREATE OR REPLACE FUNCTION logs.configure_ingest_role(role_name text) RETURNS void
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
