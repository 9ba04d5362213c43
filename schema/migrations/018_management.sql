-- Schema lqe_admin: what the management API (/api/sources, /api/backends, /api/rules) creates
-- and changes, kept here rather than in a gateway's memory so it survives restarts and every
-- gateway of a replica set reads the same state. Every change is in lqe_admin.audit_log, and
-- each table's trigger notifies channel lqe_admin_changed.
CREATE SCHEMA IF NOT EXISTS lqe_admin;
REVOKE ALL ON SCHEMA lqe_admin FROM PUBLIC;
COMMENT ON SCHEMA lqe_admin IS
  'State of lqe''s management API: sources, backends (log drains), rules and the audit log.';

CREATE TABLE IF NOT EXISTS lqe_admin.sources (
  id bigserial PRIMARY KEY,
  token uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE CHECK (name <> '' AND octet_length(name) <= 256),
  description text,
  read_only boolean NOT NULL DEFAULT false,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE lqe_admin.sources IS
  'Log sources as the management API lists them: the nine of a Supabase stack (seeded, read '
  'only) and those a key with the private scope created.';
COMMENT ON COLUMN lqe_admin.sources.id IS 'The integer id Logflare clients pass as source_id.';
COMMENT ON COLUMN lqe_admin.sources.token IS 'The UUID that names the source in API paths.';
COMMENT ON COLUMN lqe_admin.sources.name IS 'The source name shippers send (source_name).';
COMMENT ON COLUMN lqe_admin.sources.description IS 'Free text.';
COMMENT ON COLUMN lqe_admin.sources.read_only IS
  'Declared by lqe itself: the API may not change or delete it.';
COMMENT ON COLUMN lqe_admin.sources.inserted_at IS 'When it was created.';
COMMENT ON COLUMN lqe_admin.sources.updated_at IS 'When it last changed.';

INSERT INTO lqe_admin.sources (id, name, read_only) VALUES
  (1, 'cloudflare.logs.prod', true),
  (2, 'postgres.logs', true),
  (3, 'deno-relay-logs', true),
  (4, 'deno-subhosting-events', true),
  (5, 'gotrue.logs.prod', true),
  (6, 'realtime.logs.prod', true),
  (7, 'storage.logs.prod.2', true),
  (8, 'postgREST.logs.prod', true),
  (9, 'pgbouncer.logs.prod', true)
ON CONFLICT DO NOTHING;
-- Sources created through the API start at 101; applied again, it never moves the sequence back.
SELECT setval('lqe_admin.sources_id_seq',
              greatest(100, (SELECT last_value FROM lqe_admin.sources_id_seq)));

CREATE TABLE IF NOT EXISTS lqe_admin.backends (
  id bigserial PRIMARY KEY,
  token uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> '' AND octet_length(name) <= 256),
  description text,
  type text NOT NULL,
  config jsonb NOT NULL DEFAULT '{}',
  metadata jsonb,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE lqe_admin.backends IS
  'Backends (log drains): where events that match their rules are delivered.';
COMMENT ON COLUMN lqe_admin.backends.id IS 'The integer id rules refer to (backend_id).';
COMMENT ON COLUMN lqe_admin.backends.token IS 'The UUID that names the backend in API paths.';
COMMENT ON COLUMN lqe_admin.backends.name IS 'Its name.';
COMMENT ON COLUMN lqe_admin.backends.description IS 'Free text.';
COMMENT ON COLUMN lqe_admin.backends.type IS 'webhook, otlp, loki or datadog.';
COMMENT ON COLUMN lqe_admin.backends.config IS 'The type''s settings, validated by the API.';
COMMENT ON COLUMN lqe_admin.backends.metadata IS
  'Free-form labels (Studio lists {"type": "log-drain"}).';
COMMENT ON COLUMN lqe_admin.backends.inserted_at IS 'When it was created.';
COMMENT ON COLUMN lqe_admin.backends.updated_at IS 'When it last changed.';

CREATE TABLE IF NOT EXISTS lqe_admin.rules (
  id bigserial PRIMARY KEY,
  token uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  lql_string text NOT NULL,
  backend_id bigint NOT NULL REFERENCES lqe_admin.backends (id) ON DELETE CASCADE,
  source_id bigint NOT NULL REFERENCES lqe_admin.sources (id) ON DELETE CASCADE,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS rules_backend_id ON lqe_admin.rules (backend_id);
CREATE INDEX IF NOT EXISTS rules_source_id ON lqe_admin.rules (source_id);
COMMENT ON TABLE lqe_admin.rules IS
  'Routing rules: events of source_id matching lql_string go to backend_id.';
COMMENT ON COLUMN lqe_admin.rules.id IS 'Its integer id.';
COMMENT ON COLUMN lqe_admin.rules.token IS 'The UUID that names the rule in API paths.';
COMMENT ON COLUMN lqe_admin.rules.lql_string IS 'An LQL filter, checked by the API.';
COMMENT ON COLUMN lqe_admin.rules.backend_id IS 'The backend events are delivered to.';
COMMENT ON COLUMN lqe_admin.rules.source_id IS 'The source whose events it matches.';
COMMENT ON COLUMN lqe_admin.rules.inserted_at IS 'When it was created.';
COMMENT ON COLUMN lqe_admin.rules.updated_at IS 'When it last changed.';

CREATE TABLE IF NOT EXISTS lqe_admin.audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  key_name text NOT NULL,
  key_fingerprint text NOT NULL,
  action text NOT NULL,
  object_type text NOT NULL,
  object_id bigint,
  object_token uuid,
  detail jsonb
);
CREATE INDEX IF NOT EXISTS audit_log_at ON lqe_admin.audit_log (at);
COMMENT ON TABLE lqe_admin.audit_log IS
  'Every change made through the management API: who, what and when. Rows are only added.';
COMMENT ON COLUMN lqe_admin.audit_log.id IS 'Order of the changes.';
COMMENT ON COLUMN lqe_admin.audit_log.at IS 'When the change was committed.';
COMMENT ON COLUMN lqe_admin.audit_log.key_name IS 'The API key''s name (from the config).';
COMMENT ON COLUMN lqe_admin.audit_log.key_fingerprint IS
  'The first 16 hex digits of the SHA-256 of the key''s token.';
COMMENT ON COLUMN lqe_admin.audit_log.action IS 'create, update or delete.';
COMMENT ON COLUMN lqe_admin.audit_log.object_type IS 'source, backend or rule.';
COMMENT ON COLUMN lqe_admin.audit_log.object_id IS 'The object''s integer id.';
COMMENT ON COLUMN lqe_admin.audit_log.object_token IS 'The object''s UUID.';
COMMENT ON COLUMN lqe_admin.audit_log.detail IS
  'The fields the request set (a backend''s config values are left out: they hold secrets).';

-- Gateways that cache any of this state listen here; the payload is the table's name.
CREATE OR REPLACE FUNCTION lqe_admin.notify_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lqe_admin_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER sources_changed AFTER INSERT OR UPDATE OR DELETE ON lqe_admin.sources
  FOR EACH STATEMENT EXECUTE FUNCTION lqe_admin.notify_changed();
CREATE OR REPLACE TRIGGER backends_changed AFTER INSERT OR UPDATE OR DELETE ON lqe_admin.backends
  FOR EACH STATEMENT EXECUTE FUNCTION lqe_admin.notify_changed();
CREATE OR REPLACE TRIGGER rules_changed AFTER INSERT OR UPDATE OR DELETE ON lqe_admin.rules
  FOR EACH STATEMENT EXECUTE FUNCTION lqe_admin.notify_changed();
