-- Endpoints created through the management API (/api/endpoints), kept beside the YAML files the
-- operator declares: every gateway loads them with its files (a file's endpoint of the same name
-- wins) and reloads when this table changes.
CREATE TABLE IF NOT EXISTS lqe_admin.endpoints (
  id bigserial PRIMARY KEY,
  token uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE CHECK (name <> '' AND octet_length(name) <= 256),
  description text,
  definition jsonb NOT NULL,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE lqe_admin.endpoints IS
  'Endpoints created through the management API; the gateways load them with their endpoint files.';
COMMENT ON COLUMN lqe_admin.endpoints.id IS 'Its integer id.';
COMMENT ON COLUMN lqe_admin.endpoints.token IS 'Its UUID: the endpoint''s id in query URLs.';
COMMENT ON COLUMN lqe_admin.endpoints.name IS 'Its name: the endpoint''s name in query URLs.';
COMMENT ON COLUMN lqe_admin.endpoints.description IS 'Free text.';
COMMENT ON COLUMN lqe_admin.endpoints.definition IS
  'The endpoint as an endpoint file''s keys (query, language, max_rows, cache_seconds, '
  'cache_warming_seconds, sandbox, redact_pii, params), checked and translated before it is kept.';
COMMENT ON COLUMN lqe_admin.endpoints.inserted_at IS 'When it was created.';
COMMENT ON COLUMN lqe_admin.endpoints.updated_at IS 'When it last changed.';
CREATE OR REPLACE TRIGGER endpoints_changed AFTER INSERT OR UPDATE OR DELETE ON lqe_admin.endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION lqe_admin.notify_changed();
COMMENT ON COLUMN lqe_admin.audit_log.object_type IS 'source, backend, rule or endpoint.';
