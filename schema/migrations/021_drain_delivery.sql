-- Delivery of log drains (lqe_admin.backends with rules): what was written, in commit-safe order,
-- and how far each backend has delivered it.
--
-- Every batch a writer stores while any rule exists adds one row to lqe_admin.drain_outbox, in
-- the batch's own transaction: the stored events' (id, timestamp) keys, in order. A drain reads
-- the outbox in (xid, seq) order, and only rows whose transaction is older than every transaction
-- still running (pg_snapshot_xmin): a row that commits later always sorts after them, so a
-- cursor on (xid, seq) never passes over a row that has yet to appear. The events themselves are
-- read back from the log tables by their unique (id, timestamp).

CREATE TABLE IF NOT EXISTS lqe_admin.drain_outbox (
  seq bigserial PRIMARY KEY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  source text NOT NULL,
  ids text[] NOT NULL,
  stamps timestamptz[] NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS drain_outbox_order ON lqe_admin.drain_outbox (xid, seq);
COMMENT ON TABLE lqe_admin.drain_outbox IS
  'One row per stored batch while any drain rule exists: the keys of its events, read by the '
  'drains in (xid, seq) order; rows every drain has passed are deleted.';
COMMENT ON COLUMN lqe_admin.drain_outbox.seq IS 'Order within a transaction.';
COMMENT ON COLUMN lqe_admin.drain_outbox.xid IS 'The writing transaction: the order drains read.';
COMMENT ON COLUMN lqe_admin.drain_outbox.source IS 'The log table (logs.<source>) written.';
COMMENT ON COLUMN lqe_admin.drain_outbox.ids IS 'The stored events'' ids, in batch order.';
COMMENT ON COLUMN lqe_admin.drain_outbox.stamps IS 'Their timestamps, position by position.';
COMMENT ON COLUMN lqe_admin.drain_outbox.written_at IS 'When the batch was written.';

CREATE TABLE IF NOT EXISTS lqe_admin.drain_state (
  backend_id bigint PRIMARY KEY REFERENCES lqe_admin.backends (id) ON DELETE CASCADE,
  cursor_xid xid8 NOT NULL,
  cursor_seq bigint NOT NULL DEFAULT 0,
  cursor_pos integer NOT NULL DEFAULT 0,
  delivered bigint NOT NULL DEFAULT 0,
  batches bigint NOT NULL DEFAULT 0,
  failed_batches bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'idle',
  last_error text,
  last_error_at timestamptz,
  last_delivered_at timestamptz
);
COMMENT ON TABLE lqe_admin.drain_state IS
  'Each backend''s durable delivery cursor and counts, advanced only after its receiver accepted '
  'a batch (at least once: a batch in flight at a crash is sent again).';
COMMENT ON COLUMN lqe_admin.drain_state.cursor_xid IS
  'With cursor_seq and cursor_pos: the outbox position delivered up to.';
COMMENT ON COLUMN lqe_admin.drain_state.cursor_seq IS 'Outbox seq within cursor_xid.';
COMMENT ON COLUMN lqe_admin.drain_state.cursor_pos IS
  'Events of outbox row cursor_seq already passed (a row larger than one batch).';
COMMENT ON COLUMN lqe_admin.drain_state.delivered IS 'Events the receiver accepted.';
COMMENT ON COLUMN lqe_admin.drain_state.batches IS 'Batches the receiver accepted.';
COMMENT ON COLUMN lqe_admin.drain_state.failed_batches IS 'Delivery attempts that failed.';
COMMENT ON COLUMN lqe_admin.drain_state.status IS
  'idle, delivering, retrying (receiver down or 5xx/429), failing (4xx: retried slowly) or '
  'unsupported.';
COMMENT ON COLUMN lqe_admin.drain_state.last_error IS 'The last failure, as the drain saw it.';
COMMENT ON COLUMN lqe_admin.drain_state.last_error_at IS 'When it happened.';
COMMENT ON COLUMN lqe_admin.drain_state.last_delivered_at IS 'When a batch was last accepted.';

-- A new backend delivers what is written after it exists.
CREATE OR REPLACE FUNCTION lqe_admin.start_drain() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lqe_admin.drain_state (backend_id, cursor_xid)
  VALUES (NEW.id, pg_current_xact_id()) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER backends_start_drain AFTER INSERT ON lqe_admin.backends
  FOR EACH ROW EXECUTE FUNCTION lqe_admin.start_drain();
INSERT INTO lqe_admin.drain_state (backend_id, cursor_xid)
SELECT id, pg_current_xact_id() FROM lqe_admin.backends ON CONFLICT DO NOTHING;

-- Whether a writer must record its batches (any rule exists). Writers call these in their
-- batch's transaction; SECURITY DEFINER because the ingest role has no rights in lqe_admin.
CREATE OR REPLACE FUNCTION logs.drains_active() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
  SELECT EXISTS (SELECT 1 FROM lqe_admin.rules)
$$;
CREATE OR REPLACE FUNCTION logs.record_drained_batch(source text, ids text[],
                                                     stamps timestamptz[]) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog AS $$
  INSERT INTO lqe_admin.drain_outbox (source, ids, stamps)
  SELECT source, ids, stamps
   WHERE cardinality(ids) > 0 AND cardinality(ids) = cardinality(stamps)
     AND EXISTS (SELECT 1 FROM lqe_admin.rules)
$$;

-- A backend's config as the API shows it: secrets (api_key, password, and credential headers)
-- read "REDACTED". lqe_admin.unmask_config puts the stored secret back where an update sends
-- "REDACTED" again, so a client may PUT what it read.
CREATE OR REPLACE FUNCTION lqe_admin.is_secret_header(name text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT lower(name) IN ('authorization', 'proxy-authorization', 'x-api-key', 'api-key',
                         'dd-api-key', 'x-auth-token', 'cookie')
$$;
CREATE OR REPLACE FUNCTION lqe_admin.masked_config(config jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT config
         || (SELECT coalesce(jsonb_object_agg(k, 'REDACTED'), '{}') FROM jsonb_object_keys(config) k
              WHERE k IN ('api_key', 'password'))
         || CASE WHEN jsonb_typeof(config -> 'headers') = 'object' THEN
              jsonb_build_object('headers', (
                SELECT coalesce(jsonb_object_agg(h.key, CASE WHEN lqe_admin.is_secret_header(h.key)
                                                        THEN '"REDACTED"'::jsonb ELSE h.value END),
                                '{}')
                  FROM jsonb_each(config -> 'headers') h))
            ELSE '{}' END
$$;
CREATE OR REPLACE FUNCTION lqe_admin.unmask_config(config jsonb, stored jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT config
         || (SELECT coalesce(jsonb_object_agg(k, stored -> k), '{}') FROM jsonb_object_keys(config) k
              WHERE k IN ('api_key', 'password') AND config ->> k = 'REDACTED' AND stored ? k)
         || CASE WHEN jsonb_typeof(config -> 'headers') = 'object' THEN
              jsonb_build_object('headers', (
                SELECT coalesce(jsonb_object_agg(h.key,
                         CASE WHEN h.value = '"REDACTED"' AND stored -> 'headers' ? h.key
                              THEN stored -> 'headers' -> h.key ELSE h.value END), '{}')
                  FROM jsonb_each(config -> 'headers') h))
            ELSE '{}' END
$$;

-- Whether outbox row `o` lies past a drain's cursor (not yet passed), and how long the oldest
-- such row has waited: the drain's lag.
CREATE OR REPLACE FUNCTION lqe_admin.drain_pending(o lqe_admin.drain_outbox,
                                                   s lqe_admin.drain_state) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (o.xid, o.seq) >= (s.cursor_xid, s.cursor_seq)
         AND NOT (o.xid = s.cursor_xid AND o.seq = s.cursor_seq
                  AND cardinality(o.ids) <= s.cursor_pos)
$$;
CREATE OR REPLACE FUNCTION lqe_admin.drain_lag_seconds(backend bigint) RETURNS float8
LANGUAGE sql STABLE AS $$
  SELECT coalesce(extract(epoch FROM now() - (
           SELECT o.written_at FROM lqe_admin.drain_outbox o
            WHERE lqe_admin.drain_pending(o, s) ORDER BY o.xid, o.seq LIMIT 1)), 0)::float8
    FROM lqe_admin.drain_state s WHERE s.backend_id = backend
$$;
