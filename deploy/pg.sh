#!/usr/bin/env bash
# The quickstart's local PostgreSQL 15 cluster: ./var/pg, 127.0.0.1:${LQE_PG_PORT:-54329},
# database "lqe" (created on first start). Usage: deploy/pg.sh start|stop|status|dsn
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib/pg-cluster.sh

PORT=${LQE_PG_PORT:-54329}
DIR=$PWD/var/pg
DSN="postgresql://postgres@127.0.0.1:$PORT/lqe"

usage() {
  echo "usage: deploy/pg.sh start|stop|status|dsn" >&2
  exit 2
}

start() {
  mkdir -p "$PWD/var"
  # As root the server runs as 'postgres', which must be able to reach ./var/pg.
  if [[ $(id -u) -eq 0 ]]; then
    chmod o+x "$PWD/var"
    if [[ ! -e $DIR ]] && ! runuser -u postgres -- test -x "$PWD/var"; then
      # A parent of the checkout (e.g. root's home directory) is closed to others: keep the
      # cluster where postgres can reach it, linked from ./var/pg so every command finds it.
      local real
      real=/var/lib/lqe/pg-$(printf '%s' "$PWD" | sha256sum | cut -c1-12)
      mkdir -p "$real"
      ln -s "$real" "$DIR"
      echo "pg.sh: postgres cannot enter $PWD; the cluster lives in $real (linked from var/pg)"
    fi
  fi
  pg_cluster_init "$DIR"
  pg_cluster_start "$DIR" "$PORT"
  local admin="postgresql://postgres@127.0.0.1:$PORT/postgres"
  if [[ -z $(psql "$admin" -tAc "SELECT 1 FROM pg_database WHERE datname = 'lqe'") ]]; then
    psql "$admin" -q -c "CREATE DATABASE lqe"
    echo "pg.sh: created database lqe"
  fi
  echo "pg.sh: running on 127.0.0.1:$PORT ($DSN)"
}

case "${1:-}" in
  start) start ;;
  stop)
    pg_cluster_stop "$DIR"
    echo "pg.sh: stopped"
    ;;
  status)
    if [[ -f "$DIR/data/PG_VERSION" ]] && pg_cluster_status "$DIR" >/dev/null 2>&1; then
      echo "pg.sh: running on 127.0.0.1:$PORT ($DSN)"
    else
      echo "pg.sh: not running"
      exit 3
    fi
    ;;
  dsn) echo "$DSN" ;;
  *) usage ;;
esac
