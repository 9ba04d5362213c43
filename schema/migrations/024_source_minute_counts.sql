-- Events per UTC minute of every log table, kept exact by the writing statement: the console's
-- histogram (/api/logs/hits) over days of events reads a few thousand rows here instead of
-- counting millions.
--
-- Statement triggers with transition tables count what an INSERT, DELETE or UPDATE changed
-- (an INSERT ... ON CONFLICT DO NOTHING sees only the rows it inserted; an UPDATE that moves
-- events between minutes, or between day partitions, subtracts and adds); TRUNCATE of the table
-- forgets its counts. Each statement appends its own per-minute counts to
-- logs.source_minute_counts_delta (no conflict check on the hot path, as for the edge rollup),
-- and logs.compact_source_minute_counts() folds the delta into logs.source_minute_counts.
--
-- A table is covered while it has the trigger count_minutes_insert (logs.minute_counts_cover).
-- Not covered, and so counted from the table: a table with foreign partitions (PostgreSQL 15
-- collects no transition rows for rows routed to them, and mirroring the trigger would make
-- every routed row a round trip of its own, 007_shards.sql), and any log table made outside lqe.
-- What bypasses the parent's statement triggers (TRUNCATE or DELETE on one day partition by
-- hand, a partition detached or dropped by hand) needs logs.rebuild_minute_counts(table).
-- Retention deletes the counts of the days it drops (logs.forget_minute_counts).

CREATE TABLE IF NOT EXISTS logs.source_minute_counts (
  source_table text NOT NULL,
  "timestamp" timestamptz NOT NULL,
  events bigint NOT NULL,
  PRIMARY KEY (source_table, "timestamp")
);

CREATE TABLE IF NOT EXISTS logs.source_minute_counts_delta (
  source_table text NOT NULL,
  "timestamp" timestamptz NOT NULL,
  events bigint NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000);

COMMENT ON TABLE logs.source_minute_counts IS
  'Events per UTC minute of each covered log table (logs.minute_counts_cover); a minute''s count '
  'is the sum of its row here and its rows in logs.source_minute_counts_delta.';
COMMENT ON COLUMN logs.source_minute_counts.source_table IS 'The log table (logs.<source_table>).';
COMMENT ON COLUMN logs.source_minute_counts."timestamp" IS 'Start of the UTC minute.';
COMMENT ON COLUMN logs.source_minute_counts.events IS 'Events of the table in that minute.';
COMMENT ON TABLE logs.source_minute_counts_delta IS
  'Changes to logs.source_minute_counts not folded into it yet, one row per writing statement '
  'and minute (negative for deletes); logs.compact_source_minute_counts() folds them.';
COMMENT ON COLUMN logs.source_minute_counts_delta.source_table IS
  'The log table (logs.<source_table>).';
COMMENT ON COLUMN logs.source_minute_counts_delta."timestamp" IS 'Start of the UTC minute.';
COMMENT ON COLUMN logs.source_minute_counts_delta.events IS
  'Events one statement added to that minute (negative: removed).';

-- The minute of a timestamp, whatever the session's time zone.
CREATE OR REPLACE FUNCTION logs.event_minute(ts timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN date_bin('1 minute', ts, timestamptz '2000-01-01 00:00:00+00');

CREATE OR REPLACE FUNCTION logs.count_inserted_minutes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  INSERT INTO logs.source_minute_counts_delta
  SELECT TG_TABLE_NAME, logs.event_minute(n."timestamp"), count(*) FROM new_rows n GROUP BY 2;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION logs.count_deleted_minutes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  INSERT INTO logs.source_minute_counts_delta
  SELECT TG_TABLE_NAME, logs.event_minute(o."timestamp"), -count(*) FROM old_rows o GROUP BY 2;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION logs.count_updated_minutes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  INSERT INTO logs.source_minute_counts_delta
  SELECT TG_TABLE_NAME, m, sum(d) FROM (
    SELECT logs.event_minute(n."timestamp") AS m, 1 AS d FROM new_rows n
    UNION ALL
    SELECT logs.event_minute(o."timestamp"), -1 FROM old_rows o
  ) AS c GROUP BY m HAVING sum(d) <> 0;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION logs.forget_truncated_minutes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  LOCK TABLE logs.source_minute_counts_delta IN SHARE UPDATE EXCLUSIVE MODE;  -- no fold meanwhile
  DELETE FROM logs.source_minute_counts_delta WHERE source_table = TG_TABLE_NAME;
  DELETE FROM logs.source_minute_counts WHERE source_table = TG_TABLE_NAME;
  RETURN NULL;
END
$fn$;

-- Covered: the table's counts are exact (the insert trigger is the mark; the others come and go
-- with it).
CREATE OR REPLACE FUNCTION logs.minute_counts_cover(log_table text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
RETURN EXISTS (SELECT 1 FROM pg_trigger t
                WHERE t.tgrelid = to_regclass(format('logs.%I', log_table))
                  AND t.tgname = 'count_minutes_insert');

-- Stops counting a table and forgets its counts.
CREATE OR REPLACE FUNCTION logs.stop_minute_counts(log_table text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF to_regclass(format('logs.%I', log_table)) IS NOT NULL THEN
    EXECUTE format('DROP TRIGGER IF EXISTS count_minutes_insert ON logs.%I', log_table);
    EXECUTE format('DROP TRIGGER IF EXISTS count_minutes_delete ON logs.%I', log_table);
    EXECUTE format('DROP TRIGGER IF EXISTS count_minutes_update ON logs.%I', log_table);
    EXECUTE format('DROP TRIGGER IF EXISTS count_minutes_truncate ON logs.%I', log_table);
  END IF;
  LOCK TABLE logs.source_minute_counts_delta IN SHARE UPDATE EXCLUSIVE MODE;
  DELETE FROM logs.source_minute_counts_delta WHERE source_table = log_table;
  DELETE FROM logs.source_minute_counts WHERE source_table = log_table;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.stop_minute_counts(text) FROM PUBLIC;

-- (Re)counts a log table from its rows and keeps it counted; a table with foreign partitions is
-- left uncovered. The SHARE ROW EXCLUSIVE lock lets no writer in between the count and the
-- triggers, so no event is counted twice or missed. Returns whether the table is covered.
CREATE OR REPLACE FUNCTION logs.rebuild_minute_counts(log_table text) RETURNS boolean
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  parent regclass := format('logs.%I', log_table)::regclass;
BEGIN
  EXECUTE format('LOCK TABLE logs.%I IN SHARE ROW EXCLUSIVE MODE', log_table);
  PERFORM logs.stop_minute_counts(log_table);
  IF EXISTS (SELECT 1 FROM pg_partition_tree(parent) p JOIN pg_class c ON c.oid = p.relid
              WHERE c.relkind = 'f') THEN
    RETURN false;
  END IF;
  EXECUTE format('INSERT INTO logs.source_minute_counts '
                 'SELECT %L, logs.event_minute("timestamp") AS m, count(*) FROM logs.%I '
                 'GROUP BY m ORDER BY m', log_table, log_table);
  EXECUTE format('CREATE TRIGGER count_minutes_insert AFTER INSERT ON logs.%I '
                 'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT '
                 'EXECUTE FUNCTION logs.count_inserted_minutes()', log_table);
  EXECUTE format('CREATE TRIGGER count_minutes_delete AFTER DELETE ON logs.%I '
                 'REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT '
                 'EXECUTE FUNCTION logs.count_deleted_minutes()', log_table);
  EXECUTE format('CREATE TRIGGER count_minutes_update AFTER UPDATE ON logs.%I '
                 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT '
                 'EXECUTE FUNCTION logs.count_updated_minutes()', log_table);
  EXECUTE format('CREATE TRIGGER count_minutes_truncate AFTER TRUNCATE ON logs.%I '
                 'FOR EACH STATEMENT EXECUTE FUNCTION logs.forget_truncated_minutes()',
                 log_table);
  RETURN true;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.rebuild_minute_counts(text) FROM PUBLIC;

-- Folds the delta into logs.source_minute_counts in one transaction (a reader sees each change
-- in exactly one of the two tables); returns how many delta rows it moved. Any role may call it:
-- it changes no answer.
CREATE OR REPLACE FUNCTION logs.compact_source_minute_counts() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  moved bigint;
BEGIN
  LOCK TABLE logs.source_minute_counts_delta IN SHARE UPDATE EXCLUSIVE MODE;
  WITH taken AS (
    DELETE FROM logs.source_minute_counts_delta RETURNING *
  ), folded AS (
    INSERT INTO logs.source_minute_counts AS a
    SELECT source_table, "timestamp", sum(events)::bigint FROM taken
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (source_table, "timestamp") DO UPDATE SET events = a.events + excluded.events
  )
  SELECT count(*) INTO moved FROM taken;
  -- A minute whose events were all deleted keeps no row.
  DELETE FROM logs.source_minute_counts WHERE events = 0;
  RETURN moved;
END
$fn$;

-- Retention: the counts of the days it drops, in its transaction. The counts of `log_table` (every
-- table when NULL) from the day `first_day` (the beginning when NULL) to the end of `last_day`.
CREATE OR REPLACE FUNCTION logs.forget_minute_counts(log_table text, first_day date, last_day date)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  low timestamptz := coalesce(first_day::timestamp AT TIME ZONE 'UTC', '-infinity');
  high timestamptz := (last_day + 1)::timestamp AT TIME ZONE 'UTC';
  removed bigint;
BEGIN
  LOCK TABLE logs.source_minute_counts_delta IN SHARE UPDATE EXCLUSIVE MODE;
  DELETE FROM logs.source_minute_counts_delta
   WHERE (log_table IS NULL OR source_table = log_table) AND "timestamp" >= low
     AND "timestamp" < high;
  DELETE FROM logs.source_minute_counts
   WHERE (log_table IS NULL OR source_table = log_table) AND "timestamp" >= low
     AND "timestamp" < high;
  GET DIAGNOSTICS removed = ROW_COUNT;
  RETURN removed;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.forget_minute_counts(text, date, date) FROM PUBLIC;

-- Every change of a source's partitions goes through here: a source that gains a foreign
-- partition stops being counted (see the top), then its routed inserts are prepared.
CREATE OR REPLACE FUNCTION logs.prepare_source_inserts(source text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF logs.minute_counts_cover(source)
     AND EXISTS (SELECT 1 FROM pg_partition_tree(format('logs.%I', source)::regclass) p
                   JOIN pg_class c ON c.oid = p.relid WHERE c.relkind = 'f') THEN
    PERFORM logs.stop_minute_counts(source);
  END IF;
  PERFORM logs.prepare_routed_inserts(source);
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.prepare_source_inserts(text) FROM PUBLIC;

-- Sources created through the API are counted from their first event; a deleted one's counts go.
CREATE OR REPLACE FUNCTION lqe_admin.count_source_table() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.log_table IS NOT NULL THEN
    PERFORM logs.rebuild_minute_counts(NEW.log_table);
  ELSIF TG_OP = 'DELETE' AND OLD.log_table IS NOT NULL THEN
    DELETE FROM logs.source_minute_counts_delta WHERE source_table = OLD.log_table;
    DELETE FROM logs.source_minute_counts WHERE source_table = OLD.log_table;
  END IF;
  RETURN NULL;
END
$fn$;
CREATE OR REPLACE TRIGGER sources_count_table AFTER INSERT OR DELETE ON lqe_admin.sources
  FOR EACH ROW EXECUTE FUNCTION lqe_admin.count_source_table();

-- The log tables there are now (not the feeds of routed rows, which are plain tables). Counting
-- what they hold reads each once; a table counted already is left alone.
DO $do$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT c.relispartition
     ORDER BY 1
  LOOP
    IF NOT logs.minute_counts_cover(t.relname) THEN
      PERFORM logs.rebuild_minute_counts(t.relname);
    END IF;
  END LOOP;
END
$do$;
