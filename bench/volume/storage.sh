#!/usr/bin/env bash
# What compressing each log row would cost and save. The same COUNT generated edge events (10
# projects, seed 1) go into one database per storage setting of logs.edge's day partitions:
#   default  as lqe migrate makes them: lz4 for values the toaster compresses, which PostgreSQL
#            only does for rows over TOAST_TUPLE_THRESHOLD (2,032 bytes)
#   extended toast_tuple_target=128 and metadata lz4 (storage EXTENDED)
#   main     toast_tuple_target=128 and every text/jsonb column lz4 with storage MAIN (compressed
#            in the row, out of line only past ~8 KB)
#   forced   main, plus a generated 2 KB column of spaces (it compresses to 26 bytes) that lifts
#            every row over the 2,032-byte threshold
# PostgreSQL 15 only calls the toaster for rows over 2,032 bytes, whatever toast_tuple_target
# says, so "extended" and "main" compress no more rows than "default" ("extended" even moves the
# metadata of the larger rows out of line); "forced" shows what compressing every row with lz4
# would give. SETTINGS="..." picks some; QUERIES="..." the settings the
# query set and the file system estimates run on (default "default forced": the others store
# the same rows as default).
# Per setting: `lqe load` (events/s) and the WAL it writes, the table's size (heap, TOAST,
# indexes) and the metadata column's mean stored size, a COPY of lqe's formed rows into the
# emptied table (2 connections, lz4, the table_floor.sh way: PostgreSQL's own cost) and its WAL,
# and the volume query set (bench/volume/queries.sh, REPS rounds, warm cache, as the gateway
# role: jit off; QUERY_SET=0 skips it). At the end three reads (a scan of every row's metadata,
# the newest 100 rows, a filtered listing) run on the queried settings' databases in REPS
# interleaved rounds, so that a busy machine's load falls on each setting alike.
#
# The compressing file system's sizes are estimated by compressing the files' 128 KiB pieces;
# FS=btrfs (as root; btrfs-progs and btrfs-compsize installed) runs everything on a real btrfs
# file system mounted with compress-force=zstd from a sparse loop file of FS_SIZE (default 20G)
# and also reports what compsize finds the files take on it.
#
# Usage: bench/volume/storage.sh [COUNT] [REPS]   (defaults 200000 2; LQE_BIN: the binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh

COUNT=${1:-200000}
REPS=${2:-2}
export LQE_BIN=${LQE_BIN:-$ROOT/build/lqe}
LQE=$LQE_BIN

source bench/lib/throwaway.sh
bench_throwaway_dir storage
if [ "${FS:-}" = btrfs ]; then
  truncate -s "${FS_SIZE:-20G}" "$TMP/fs.img"
  mkfs.btrfs -q "$TMP/fs.img"
  mkdir "$TMP/pg"
  mount -o loop,compress-force=zstd "$TMP/fs.img" "$TMP/pg"
  chmod 755 "$TMP/pg"
  # Called by the throwaway cleanup before it removes TMP: the server first, then the mount.
  bench_stop_processes() {
    pg_cluster_stop "$TMP/pg"
    umount "$TMP/pg" || umount -l "$TMP/pg"
  }
fi
bench_throwaway_cluster

echo "storage: $COUNT edge events; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
NOW=$(date -u +%Y-%m-%dT%H:%M:00Z)
"$LQE" generate --source edge --count "$COUNT" --projects 10 --seed 1 --now "$NOW" >"$TMP/events.ndjson"

# The loaded days, from a first load; every measured database gets these partitions before
# its timed load, so that the setting is on them when the rows arrive.
psql "$SUPER/postgres" -qX -c "CREATE DATABASE days"
"$LQE" migrate --dsn "$SUPER/days" >/dev/null
"$LQE" load --dsn "$SUPER/days" --source edge "$TMP/events.ndjson" >/dev/null
psql "$SUPER/days" -qAtX -c "SELECT DISTINCT format('SELECT logs.ensure_partition(%L, %L);',
  'edge', (\"timestamp\" AT TIME ZONE 'UTC')::date) FROM logs.edge" >"$TMP/days.sql"
COLUMNS='id, "timestamp", event_message, project, metadata, extra'
psql "$SUPER/days" -qX -c "\\copy (SELECT $COLUMNS FROM logs.edge) TO '$TMP/rows.tsv'"
split -n l/2 "$TMP/rows.tsv" "$TMP/rows."
psql "$SUPER/postgres" -qX -c "DROP DATABASE days"

# apply DB SETTING: the setting on logs.edge and its partitions (made already, empty).
apply() {
  local db=$1 setting=$2
  local parts="SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'logs.edge'::regclass"
  local columns="FROM pg_attribute WHERE attrelid = 'logs.edge'::regclass AND attnum > 0
    AND NOT attisdropped AND atttypid IN ('text'::regtype, 'jsonb'::regtype)"
  case $setting in
    default) ;;
    extended)
      # SET COMPRESSION on the parent reaches only partitions created later: each one too.
      psql "$SUPER/$db" -qAtX -c "SELECT format('ALTER TABLE %s SET (toast_tuple_target = 128),
            ALTER COLUMN metadata SET COMPRESSION lz4;', p) FROM ($parts) x(p)" | psql "$SUPER/$db" -qX
      ;;
    main | forced)
      if [ "$setting" = forced ]; then
        psql "$SUPER/$db" -qX -c "ALTER TABLE logs.edge ADD COLUMN toast_pad text
          GENERATED ALWAYS AS (repeat(' ', 2048)) STORED"
      fi
      psql "$SUPER/$db" -qAtX -c "SELECT format('ALTER TABLE logs.edge ALTER COLUMN %I SET STORAGE MAIN;', attname) $columns" \
        -c "SELECT format('ALTER TABLE %s SET (toast_tuple_target = 128);', p) FROM ($parts) x(p)" \
        -c "SELECT format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION lz4;', p, attname)
            FROM ($parts) x(p), (SELECT attname $columns) c" | psql "$SUPER/$db" -qX
      ;;
  esac
}

# sizes DB: heap, TOAST and index bytes of logs.edge's partitions, in MB.
sizes() {
  psql "$SUPER/$1" -qAtX -F ' ' -c "SELECT round(sum(pg_relation_size(c.oid)) / 1048576.0, 1),
      round(sum(coalesce(pg_total_relation_size(c.reltoastrelid), 0)) / 1048576.0, 1),
      round(sum(pg_indexes_size(c.oid)) / 1048576.0, 1)
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'logs.edge'::regclass"
}
# fs_compressed DB: MB the heap and index files of logs.edge's partitions would take on a file
# system that compresses 128 KiB extents with zstd level 3 in 4 KiB blocks (btrfs compress=zstd),
# and with lz4 instead: what compression below PostgreSQL, across rows, would give.
fs_compressed() {
  local data segments=()
  data=$(psql "$SUPER/$1" -qAtX -c "SHOW data_directory")
  psql "$SUPER/$1" -qX -c "CHECKPOINT"
  for f in $(psql "$SUPER/$1" -qAtX -c "SELECT pg_relation_filepath(r) FROM pg_inherits i,
      LATERAL (SELECT i.inhrelid UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid = i.inhrelid) x(r)
    WHERE i.inhparent = 'logs.edge'::regclass"); do
    for segment in "$data/$f" "$data/$f".[0-9]*; do
      if [ -f "$segment" ]; then segments+=("$segment"); fi
    done
  done
  stat -c %s "${segments[@]}" | awk '{ total += $1 } END { printf "%.1f ", total / 1048576 }'
  for tool in "zstd -3" "lz4 -1"; do
    for segment in "${segments[@]}"; do
      split -b 131072 --filter="$tool -q -c | wc -c" "$segment"
    done | awk '{ total += int(($1 + 4095) / 4096) * 4096 } END { printf "%.1f ", total / 1048576 }'
  done
  if [ "${FS:-}" = btrfs ]; then
    sync
    compsize -b "${segments[@]}" | awk '$1 == "TOTAL" { printf "%.1f", $3 / 1048576 }'
  fi
  echo
}
lsn() { psql "$SUPER/$1" -qAtX -c "SELECT pg_current_wal_lsn()"; }
wal_mb() { psql "$SUPER/$1" -qAtX -c "SELECT round(pg_wal_lsn_diff('$3', '$2') / 1048576.0, 1)"; }

RESULTS=()
KEPT=()
FS_ROWS=()
for setting in ${SETTINGS:-default extended main forced}; do
  db="s_$setting"
  psql "$SUPER/postgres" -qX -c "CREATE DATABASE $db"
  "$LQE" migrate --dsn "$SUPER/$db" >/dev/null
  psql "$SUPER/$db" -qX -f "$TMP/days.sql" >/dev/null
  apply "$db" "$setting"
  psql "$SUPER/$db" -qX -c "CHECKPOINT"
  a=$(lsn "$db")
  t0=$(now)
  "$LQE" load --dsn "$SUPER/$db" --source edge "$TMP/events.ndjson" >/dev/null
  t1=$(now)
  b=$(lsn "$db")
  LOAD_RATE=$(rate "$COUNT" "$t0" "$t1")
  LOAD_WAL=$(wal_mb "$db" "$a" "$b")
  read -r HEAP TOAST INDEXES < <(sizes "$db")
  META=$(psql "$SUPER/$db" -qAtX -c "SELECT round(avg(pg_column_size(metadata))) || ' (' ||
    round(100.0 * count(*) FILTER (WHERE pg_column_compression(metadata) IS NOT NULL) / count(*)) ||
    ' %)' FROM logs.edge")

  # COPY of the formed rows into the emptied table (the rollup emptied too: same work again).
  psql "$SUPER/$db" -qX -c "TRUNCATE logs.edge, logs.edge_api_minute, logs.edge_api_minute_delta" -c "CHECKPOINT"
  a=$(lsn "$db")
  t0=$(now)
  for half in "$TMP"/rows.a?; do
    PGOPTIONS="-c default_toast_compression=lz4" psql "$SUPER/$db" -qX -c "\\copy logs.edge ($COLUMNS) FROM '$half'" &
  done
  wait
  t1=$(now)
  b=$(lsn "$db")
  COPY_RATE=$(rate "$COUNT" "$t0" "$t1")
  COPY_WAL=$(wal_mb "$db" "$a" "$b")
  psql "$SUPER/$db" -qX -c "SELECT logs.compact_edge_rollups()" -c "VACUUM ANALYZE logs.edge" -c "VACUUM ANALYZE logs.edge_api_minute"
  if [[ " ${QUERIES:-default forced} " == *" $setting "* ]]; then
    read -r FS_PLAIN FS_ZSTD FS_LZ4 FS_BTRFS < <(fs_compressed "$db")
    FS_ROWS+=("| $setting | $FS_PLAIN | $FS_ZSTD | $FS_LZ4 | ${FS_BTRFS:-not run (FS=btrfs)} |")
  fi
  TOTAL=$(awk -v h="$HEAP" -v t="$TOAST" -v i="$INDEXES" 'BEGIN { printf "%.1f", h + t + i }')
  PER_ROW=$(awk -v h="$HEAP" -v t="$TOAST" -v n="$COUNT" 'BEGIN { printf "%.0f", (h + t) * 1048576 / n }')
  RESULTS+=("| $setting | $HEAP | $TOAST | $INDEXES | $TOTAL | $PER_ROW | $META | $LOAD_RATE | $LOAD_WAL | $COPY_RATE | $COPY_WAL |")
  echo "${RESULTS[-1]}"

  if [[ " ${QUERIES:-default forced} " == *" $setting "* ]]; then
    if [ "${QUERY_SET:-1}" != 0 ]; then
      echo "queries, $setting ($REPS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)):"
      bash bench/volume/queries.sh "$SUPER/$db" "$REPS" 2>/dev/null | grep '^|'
    fi
    KEPT+=("$setting")
  else
    psql "$SUPER/postgres" -qX -c "DROP DATABASE $db"
  fi
done

# The same reads on each kept setting's database, interleaved round by round so that the
# machine's load falls on every setting alike: SCAN_RUNS timed runs after a warm one, medians.
declare -A READS=(
  [1-scan]="SELECT count(*) FROM logs.edge WHERE (metadata->'response'->>'status_code')::int >= 500"
  [2-listing]="SELECT \"timestamp\", id, event_message, metadata FROM logs.edge WHERE project = 'default' ORDER BY \"timestamp\" DESC NULLS LAST LIMIT 100"
  [3-filtered]="SELECT \"timestamp\", metadata FROM logs.edge WHERE project = 'default' AND \"timestamp\" > now() - interval '1 day' AND metadata->'request'->>'method' = 'DELETE' ORDER BY \"timestamp\" DESC NULLS LAST LIMIT 100"
)
mapfile -t READ_NAMES < <(printf '%s\n' "${!READS[@]}" | sort)
: >"$TMP/reads.t"
for _ in $(seq 1 "$REPS"); do
  for setting in "${KEPT[@]}"; do
    for name in "${READ_NAMES[@]}"; do
      { echo "SET jit = off;"; echo "${READS[$name]};"; printf '%s\n' '\timing on'
        for _ in $(seq 1 "${SCAN_RUNS:-3}"); do echo "${READS[$name]};"; done; } |
        psql "$SUPER/s_$setting" -qAtX -o /dev/null | sed -n "s/^Time: \([0-9.]*\) ms.*/$setting $name \1/p" >>"$TMP/reads.t"
    done
  done
done
echo
echo "reads, $REPS interleaved rounds of ${SCAN_RUNS:-3} (median ms; 1-scan: every row's metadata; 2-listing: newest 100 with metadata; 3-filtered: last day's DELETEs):"
echo "| setting |$(printf ' %s |' "${READ_NAMES[@]}")"
echo "|---|$(for _ in "${READ_NAMES[@]}"; do printf -- '---|'; done)"
for setting in "${KEPT[@]}"; do
  row="| $setting |"
  for name in "${READ_NAMES[@]}"; do
    row+=" $(awk -v s="$setting" -v n="$name" '$1 == s && $2 == n { print $3 }' "$TMP/reads.t" | sort -n |
      awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }') |"
  done
  echo "$row"
done

echo
echo "| setting | heap MB | TOAST MB | indexes MB | total MB | heap+TOAST bytes/row | metadata bytes/row (compressed) | lqe load events/s | load WAL MB | COPY events/s | COPY WAL MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${RESULTS[@]}"
echo
echo "heap and index files of the partitions after the COPY, as stored and on a compressing file system:"
echo "| setting | files MB | zstd-3 in 128 KiB extents, MB | lz4 in 128 KiB extents, MB | on btrfs compress-force=zstd (compsize), MB |"
echo "|---|---|---|---|---|"
printf '%s\n' "${FS_ROWS[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
