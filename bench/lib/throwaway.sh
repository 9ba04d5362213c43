#!/usr/bin/env bash
# Shared by the benchmark scripts that run against a throwaway PostgreSQL cluster of their own.
# Source it from the repository root (after deploy/lib/pg-cluster.sh), then call
#   bench_throwaway_dir NAME
# which sets TMP to a new directory lqe-NAME.XXXXXX in the temp directory (mktemp -t) that the
# postgres user can reach, and stops the cluster in "$TMP/pg" and removes TMP when the script
# ends (or is interrupted), after calling bench_stop_processes when the script defines it and
# stopping the processes in PIDS.
# Then bench_throwaway_cluster initialises and starts that cluster on a free port and sets PORT
# and SUPER (the superuser's DSN without a database).

# The script's background processes (bench_serve adds `lqe serve`): stopped when it ends, before
# the cluster.
PIDS=()

bench_throwaway_dir() {
  TMP=$(mktemp -d -t "lqe-$1.XXXXXX")
  chmod 755 "$TMP"
  trap bench_throwaway_cleanup EXIT INT TERM
}

bench_throwaway_cleanup() {
  if declare -F bench_stop_processes >/dev/null; then bench_stop_processes; fi
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  pg_cluster_stop "$TMP/pg"
  rm -rf "$TMP"
}

bench_throwaway_cluster() {
  pg_cluster_init "$TMP/pg" >/dev/null
  PORT=$(pg_cluster_start_on_free_port "$TMP/pg" 3) || exit 1
  SUPER="postgresql://postgres@127.0.0.1:$PORT"
}

# Seconds since the epoch with nanoseconds, and events a second between two such times.
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n / (b - a) }'; }
