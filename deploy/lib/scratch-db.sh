#!/usr/bin/env bash
# A fresh database for a reference suite (oracle.sh, clickhouse.sh). Source after pg-cluster.sh.
#   scratch_db_create TMP DB: in LQE_TEST_DSN's cluster when set, else in a throwaway cluster under
#     TMP/pg; sets ADMIN_DSN (the cluster's admin connection), SERVER (USER@HOST:PORT's HOST:PORT
#     part) and DSN (the new database).
#   scratch_db_drop TMP DB: stops the throwaway cluster, or drops the database and its gateway role.

scratch_db_create() {
  local tmp=$1 db=$2
  SCRATCH_OWN_CLUSTER=""
  if [[ -n ${LQE_TEST_DSN:-} ]]; then
    ADMIN_DSN=$LQE_TEST_DSN
  else
    SCRATCH_OWN_CLUSTER=1
    pg_cluster_init "$tmp/pg"
    local port
    port=$(pg_cluster_start_on_free_port "$tmp/pg") || { echo "the throwaway cluster did not start" >&2; return 1; }
    ADMIN_DSN="postgresql://postgres@127.0.0.1:$port/postgres"
  fi
  # postgresql://USER@HOST:PORT/DB (the throwaway clusters' trust-auth form) -> the same server.
  SERVER=${ADMIN_DSN#*://}
  SERVER=${SERVER#*@}
  SERVER=${SERVER%%/*}
  psql -q -v ON_ERROR_STOP=1 "$ADMIN_DSN" -c "create database $db" >/dev/null
  DSN="postgresql://postgres@$SERVER/$db"
}

scratch_db_drop() {
  local tmp=$1 db=$2
  if [[ -n ${SCRATCH_OWN_CLUSTER:-} ]]; then
    pg_cluster_stop "$tmp/pg"
  elif [[ -n ${ADMIN_DSN:-} ]]; then
    psql -q "$ADMIN_DSN" -c "drop database if exists $db" >/dev/null 2>&1 || true
    psql -q "$ADMIN_DSN" -c "drop role if exists lqe_gateway_$db" >/dev/null 2>&1 || true
  fi
}
