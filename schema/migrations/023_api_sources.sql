-- Sources created through the management API (and by OTLP ingest for a service.name that names
-- no source) get a log table of their own, logs.source_<id>, in the shape of the nine: made when
-- the source row is inserted, dropped with its events when the row is deleted. The functions run
-- with their owner's rights (the migrating role, which owns the log tables): neither the
-- gateway's role nor the ingest role may create tables.

ALTER TABLE lqe_admin.sources ADD COLUMN IF NOT EXISTS log_table text UNIQUE;
COMMENT ON COLUMN lqe_admin.sources.log_table IS
  'The log table (logs.<log_table>) of a source created through the API; NULL for the sources '
  'lqe declares, whose tables its configuration names.';

-- At most this many created sources: each one is a partitioned table, and an ingest key that
-- sends an unbounded number of service.names must not make an unbounded number of tables. 500
-- unless the database sets lqe.max_created_sources (ALTER DATABASE ... SET).
CREATE OR REPLACE FUNCTION lqe_admin.max_created_sources() RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('lqe.max_created_sources', true), '')::integer, 500)
$$;

CREATE OR REPLACE FUNCTION lqe_admin.make_source_table() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  log_table text := 'source_' || NEW.id;
  grant_row record;
BEGIN
  IF NEW.read_only THEN
    RETURN NEW;
  END IF;
  -- Serialises creations, so a name being created by another transaction is seen here once it
  -- commits: an INSERT .. ON CONFLICT DO NOTHING runs this trigger before it finds the conflict,
  -- and must not leave a table behind.
  PERFORM pg_advisory_xact_lock(hashtext('lqe.created_sources'));
  IF EXISTS (SELECT 1 FROM lqe_admin.sources s WHERE s.name = NEW.name) THEN
    RETURN NEW;
  END IF;
  IF (SELECT count(*) FROM lqe_admin.sources WHERE NOT read_only)
     >= lqe_admin.max_created_sources() THEN
    RAISE EXCEPTION USING ERRCODE = 'program_limit_exceeded',
      MESSAGE = format('at most %s sources may be created; delete one first',
                       lqe_admin.max_created_sources());
  END IF;
  EXECUTE format($ddl$
    CREATE TABLE logs.%1$I (
      id text NOT NULL,
      "timestamp" timestamptz NOT NULL,
      event_message text,
      project text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      extra jsonb NOT NULL DEFAULT '{}'::jsonb
    ) PARTITION BY RANGE ("timestamp")$ddl$, log_table);
  EXECUTE format('CREATE UNIQUE INDEX %1$I ON logs.%2$I (id, "timestamp")',
                 log_table || '_id_ts', log_table);
  EXECUTE format('CREATE INDEX %1$I ON logs.%2$I (project, "timestamp" DESC)',
                 log_table || '_project_ts', log_table);
  EXECUTE format('COMMENT ON TABLE logs.%I IS %L', log_table,
                 'Log events of the source created through the API with id ' || NEW.id ||
                 ' (lqe_admin.sources), in the shape of logs.edge, partitioned by UTC day on '
                 'timestamp. Dropped when the source is deleted.');
  -- The roles that read or write the declared tables read or write this one.
  FOR grant_row IN
    SELECT a.privilege_type, a.grantee::regrole::text AS grantee
      FROM pg_class c, aclexplode(c.relacl) a
     WHERE c.oid = 'logs.edge'::regclass AND a.grantee <> 0 AND a.grantee <> c.relowner
       AND a.privilege_type IN ('SELECT', 'INSERT')
  LOOP
    EXECUTE format('GRANT %s ON logs.%I TO %s', grant_row.privilege_type, log_table,
                   grant_row.grantee);
  END LOOP;
  NEW.log_table := log_table;
  RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER sources_make_table BEFORE INSERT ON lqe_admin.sources
  FOR EACH ROW EXECUTE FUNCTION lqe_admin.make_source_table();

-- Deleting a source deletes its events and what lqe recorded of them.
CREATE OR REPLACE FUNCTION lqe_admin.drop_source_table() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF OLD.log_table IS NULL THEN
    RETURN OLD;
  END IF;
  EXECUTE format('DROP TABLE IF EXISTS logs.%I', OLD.log_table);
  DELETE FROM logs.field_catalogue WHERE source = OLD.log_table;
  DELETE FROM logs.catalogue_conflicts WHERE source = OLD.log_table;
  DELETE FROM lqe_admin.drain_outbox WHERE source = OLD.log_table;
  RETURN OLD;
END
$$;
CREATE OR REPLACE TRIGGER sources_drop_table AFTER DELETE ON lqe_admin.sources
  FOR EACH ROW EXECUTE FUNCTION lqe_admin.drop_source_table();

-- The source named `source_name`, created (with its table) when there is none: OTLP ingest
-- calls it for a service.name that names no source. Returns the source's UUID and log table
-- (NULL table: a declared source lqe's configuration does not ingest). A creation is written to
-- the audit log under the ingesting key.
CREATE OR REPLACE FUNCTION logs.ensure_source(source_name text, key_name text,
                                              key_fingerprint text)
RETURNS TABLE (token text, log_table text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  created lqe_admin.sources;
BEGIN
  IF source_name IS NULL OR source_name = '' OR octet_length(source_name) > 256 THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value',
      MESSAGE = 'a source name must be 1 to 256 bytes';
  END IF;
  INSERT INTO lqe_admin.sources AS s (name, description)
  VALUES (source_name, 'Created by OTLP ingest for service.name ' || source_name)
  ON CONFLICT (name) DO NOTHING
  RETURNING * INTO created;
  IF created.id IS NOT NULL THEN
    INSERT INTO lqe_admin.audit_log (key_name, key_fingerprint, action, object_type, object_id,
                                     object_token, detail)
    VALUES (key_name, key_fingerprint, 'create', 'source', created.id, created.token,
            jsonb_build_object('name', source_name, 'by', 'otlp ingest'));
  END IF;
  RETURN QUERY SELECT s.token::text, s.log_table FROM lqe_admin.sources s
                WHERE s.name = source_name;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.ensure_source(text, text, text) FROM PUBLIC;

-- The ingest role may also call logs.ensure_source and write the created sources' tables; lqe
-- migrate calls this after logs.configure_ingest_role.
CREATE OR REPLACE FUNCTION logs.configure_created_sources_role(role_name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  created text;
BEGIN
  EXECUTE format('GRANT EXECUTE ON FUNCTION logs.ensure_source(text, text, text) TO %I',
                 role_name);
  FOR created IN SELECT s.log_table FROM lqe_admin.sources s WHERE s.log_table IS NOT NULL LOOP
    EXECUTE format('GRANT SELECT, INSERT ON logs.%I TO %I', created, role_name);
  END LOOP;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.configure_created_sources_role(text) FROM PUBLIC;
