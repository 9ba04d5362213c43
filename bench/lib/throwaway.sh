#!/usr/bin/env bash
# Shared by the benchmark scripts that run against a throwaway PostgreSQL cluster of their own.
# Source it from the repository root (after deploy/lib/pg-cluster.sh), then call
#   bench_throwaway_dir NAME
# which sets TMP to a new directory lqe-NAME.XXXXXX in the temp directory (mktemp -t) that the
# postgres user can reach, and stops the cluster in "$TMP/pg" and removes TMP when the script
# ends (or is interrupted).

bench_throwaway_dir() {
  TMP=$(mktemp -d -t "lqe-$1.XXXXXX")
  chmod 755 "$TMP"
  trap bench_throwaway_cleanup EXIT INT TERM
}

bench_throwaway_cleanup() {
  pg_cluster_stop "$TMP/pg"
  rm -rf "$TMP"
}

# Seconds since the epoch with nanoseconds, and events a second between two such times.
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n / (b - a) }'; }
