#!/usr/bin/env bash
# Shared by the benchmark scripts that run `lqe serve`. Source it after bench/lib/throwaway.sh and
# deploy/lib/serve-lqe.sh, with ROOT, LQE (the binary), TMP, DB (the database's DSN) and PIDS set.
#   bench_serve EXTRA_YAML
# makes an API key (KEY; its SHA-256 in $TMP/key.sha256, which EXTRA_YAML may name), starts
# `lqe serve` on DB with the endpoints of sql/, no access log and EXTRA_YAML appended to its
# config, adds its pid to PIDS and sets HTTP_PORT.

bench_serve() {
  BENCH_SERVE_EXTRA=$1
  KEY=$("$LQE" keygen --sha256-file "$TMP/key.sha256" | awk '/^api_key:/ {print $2}')
  serve_lqe_start bench_write_serve_config "$TMP" || exit 1
  PIDS+=("$SERVE_PID")
  HTTP_PORT=$LQE_PORT
}

bench_write_serve_config() {
  cat >"$TMP/lqe.yaml" <<YAML
listen: 127.0.0.1:$1
database:
  dsn: $DB
catalogue_file: $ROOT/schema/catalogue_seed.tsv
endpoints_dir: $ROOT/sql
access_log: false
$BENCH_SERVE_EXTRA
YAML
}
