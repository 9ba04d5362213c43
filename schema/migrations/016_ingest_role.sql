-- A writer role for HTTP ingest (`ingest.dsn`), one per database like the gateway role: the
-- gateway's query role is read-only. It may insert into the log tables, read them (the
-- duplicate check), keep the field catalogue and the conflict counts, and create day partitions
-- through logs.ensure_partition, which now runs with its owner's rights (creating a partition
-- needs ownership of the parent table). `lqe migrate` calls logs.configure_ingest_role with
-- --ingest-role (by default lqe_ingest_<database>) on every run.
ALTER FUNCTION logs.ensure_partition(text, date) SECURITY DEFINER;
ALTER FUNCTION logs.ensure_partition(text, date) SET search_path = pg_catalog, pg_temp;

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
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', db, role_name);
END
$$;
REVOKE EXECUTE ON FUNCTION logs.configure_ingest_role(text) FROM PUBLIC;
