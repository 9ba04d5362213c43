# Shared shell functions for private PostgreSQL 15 clusters (sourced, not run).
# A cluster lives in one directory, listens only on 127.0.0.1 at its own port, and never
# touches a system cluster. As root, the server runs as the 'postgres' user (initdb refuses root).

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

# Paths handed to it must be absolute: as root it runs from / so that a working directory the
# postgres user may not enter (a mode-700 mktemp -d, say) gives no warnings.
_pg_as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# pg_free_port: prints a TCP port on 127.0.0.1 that nothing listens on. It picks below the
# kernel's ephemeral range: a port inside it can be taken, between this check and the server's
# bind, as the local end of any outgoing connection (the server's own to PostgreSQL included).
pg_free_port() {
  local port low=32768
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  ((low > 12000)) || low=32768
  for _ in $(seq 1 200); do
    port=$((10000 + RANDOM % (low - 10000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "pg_free_port: no free port found" >&2
  return 1
}

# pg_cluster_init DIR: initdb with trust auth for local TCP (loopback only) and superuser postgres.
pg_cluster_init() {
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  if [[ $(id -u) -eq 0 ]]; then
    chown -R postgres:postgres "$dir"
    if ! runuser -u postgres -- test -x "$dir"; then
      echo "pg_cluster_init: the postgres user cannot reach $dir (a parent directory is closed" \
        "to others); use a directory it can traverse" >&2
      return 1
    fi
  fi
  if [[ -f "$dir/data/PG_VERSION" ]]; then return 0; fi
  _pg_as_owner "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 \
    --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; return 1; }
}

# pg_cluster_start DIR PORT: starts the server and waits until it accepts connections. It listens
# on 127.0.0.1, or on PG_LISTEN (a test that containers must reach sets '*' and its own pg_hba line).
pg_cluster_start() {
  local dir port=$2
  dir=$(cd "$1" && pwd -P)
  if _pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then return 0; fi
  _pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-c listen_addresses=${PG_LISTEN:-127.0.0.1} -c port=$port -c unix_socket_directories=$dir/data -c fsync=off -c max_connections=200 -c timezone=UTC" \
    >/dev/null || { tail -20 "$dir/server.log" >&2; return 1; }
}

# pg_cluster_start_on_free_port DIR [TRIES]: starts the cluster in DIR on a free port and prints
# the port. A probed port can be taken before the server binds it (other processes' sockets use
# the same range), so up to TRIES (default 5) ports are tried; the last failure goes to stderr.
pg_cluster_start_on_free_port() {
  local dir=$1 tries=${2:-5} port err attempt
  for ((attempt = 1; attempt <= tries; attempt++)); do
    port=$(pg_free_port) || return 1
    if err=$(pg_cluster_start "$dir" "$port" 2>&1 >/dev/null); then
      echo "$port"
      return 0
    fi
  done
  echo "$err" >&2
  return 1
}

# pg_cluster_stop DIR: fast shutdown; quiet if it is not running.
pg_cluster_stop() {
  local dir=$1
  [[ -d $dir ]] || return 0
  dir=$(cd "$dir" && pwd -P)
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    _pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
}

pg_cluster_status() {
  _pg_as_owner "$PG_BIN/pg_ctl" -D "$(cd "$1" && pwd -P)/data" status
}

# pg_cluster_init_replica DIR PRIMARY_PORT: a streaming replica of the cluster on PRIMARY_PORT,
# copied with pg_basebackup -R (standby.signal and primary_conninfo written for us). Start it
# with pg_cluster_start on its own port.
pg_cluster_init_replica() {
  local dir=$1 primary_port=$2
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  if [[ $(id -u) -eq 0 ]]; then chown -R postgres:postgres "$dir"; fi
  if [[ -f "$dir/data/PG_VERSION" ]]; then return 0; fi
  _pg_as_owner "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres \
    -D "$dir/data" -R -X stream --checkpoint=fast >"$dir/basebackup.log" 2>&1 ||
    { cat "$dir/basebackup.log" >&2; return 1; }
}
