# Shared setup of the HTTP benchmarks (sourced, not run): a scratch PostgreSQL cluster holding
# EVENTS generated edge events, an API key, the stored endpoints plus `logs.cached` (the listing
# endpoint with the cache on), and functions to start `lqe serve` and read its numbers.
# The caller sets ROOT and LQE and calls bench_setup; everything lives under $work and is removed
# on exit.

source "$ROOT/deploy/lib/pg-cluster.sh"

# The benchmarks' tools come from Debian packages; install them when missing.
bench_tools() {
  if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
    bash "$ROOT/deploy/install-deps.sh" --bench
  fi
}

bench_cleanup() {
  [[ -n ${lqe_pid:-} ]] && kill "$lqe_pid" 2>/dev/null && wait "$lqe_pid" 2>/dev/null || true
  [[ -f ${work:-}/nginx.pid ]] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  [[ -n ${work:-} ]] && pg_cluster_stop "$work/pg"
  [[ -n ${work:-} ]] && rm -rf "$work"
}

# Cluster, data, key and endpoint files. Sets work, dsn, key, pg_port.
bench_setup() {
  work=$(mktemp -d)
  chmod 755 "$work"
  trap bench_cleanup EXIT
  pg_port=$(pg_free_port)
  pg_cluster_init "$work/pg"
  pg_cluster_start "$work/pg" "$pg_port"
  psql "postgresql://postgres@127.0.0.1:$pg_port/postgres" -qc "CREATE DATABASE lqe" >/dev/null
  dsn="postgresql://postgres@127.0.0.1:$pg_port/lqe"
  "$LQE" migrate --dsn "$dsn" --gateway-role lqe_gateway_lqe >/dev/null
  "$LQE" generate --source edge --count "${EVENTS:-50000}" --seed 42 |
    "$LQE" load --dsn "$dsn" --source edge >/dev/null
  key=$("$LQE" keygen --sha256-file "$work/key.sha256" | awk '/^api_key:/ {print $2}')
  mkdir -p "$work/sql"
  cp "$ROOT"/sql/* "$work/sql/"
  # logs.all answers ~174 KB for 100 rows but is not cached; this twin is.
  sed -e 's/^id: .*/id: 7c2d4e1a-0b9f-4c3e-8a55-1d2e3f4a5b60/' -e 's/^name: .*/name: logs.cached/' \
    -e 's/^cache_seconds: .*/cache_seconds: 900/' "$ROOT/sql/logs.all.yaml" >"$work/sql/logs.cached.yaml"
}

# bench_start_lqe IO_THREADS CACHE_MAX_BYTES [command prefix, e.g. taskset -c 0]: starts lqe serve
# and waits until it answers. Sets lqe_pid, gw_port, gw.
bench_start_lqe() {
  local io_threads=$1 cache_bytes=$2
  shift 2
  gw_port=$(pg_free_port)
  gw="http://127.0.0.1:$gw_port"
  cat >"$work/gw.yaml" <<YAML
listen: 127.0.0.1:$gw_port
io_threads: $io_threads
cache_max_bytes: $cache_bytes
database:
  dsn: postgresql://lqe_gateway_lqe@127.0.0.1:$pg_port/lqe
  pool_size: 4
catalogue_file: $ROOT/schema/catalogue_seed.tsv
access_log: false
log_level: warn
api_keys:
  - name: bench
    sha256_file: key.sha256
    endpoints: ["*"]
endpoints_dir: $work/sql
YAML
  # A session of its own, as nginx has once it daemonises: with the kernel's autogroup
  # scheduling, a session is one scheduling group, and lqe left in the script's would share
  # its CPU weight with wrk (busy on the other CPU), getting half of nginx's weight against
  # anything else runnable on its CPU.
  local session=()
  [[ ${LQE_OWN_SESSION:-1} == 1 ]] && session=(setsid)
  "$@" "${session[@]}" "$LQE" serve --config "$work/gw.yaml" &
  lqe_pid=$!
  for _ in $(seq 1 100); do
    if curl -sf "$gw/health" >/dev/null; then
      # setsid forks when started as a process group leader (a shell with job control): then
      # $! is not lqe and its /proc numbers would be wrong.
      [[ $(cat "/proc/$lqe_pid/comm" 2>/dev/null) == "$(basename "$LQE" | cut -c1-15)" ]] && return 0
      echo "lqe serve is not process $lqe_pid (run the bench without job control)" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "lqe serve did not start" >&2
  return 1
}

# The value of one sample of lqe's /metrics.
bench_metric() { curl -s "$gw/metrics" | awk -v m="$1" '$1==m {print $2}'; }
# lqe's resident set, in KiB.
bench_rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$lqe_pid/status"; }

# nginx serving $work/www (the files the lqe responses were saved to) on a free port, with
# WORKERS worker processes, started through the command prefix in the remaining arguments (e.g.
# taskset). Sets ng_port.
bench_start_nginx() {
  local workers=$1
  shift
  ng_port=$(pg_free_port)
  cat >"$work/nginx.conf" <<NGINX
worker_processes $workers;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  default_type application/json;
  server { listen 127.0.0.1:$ng_port; root $work/www; }
}
NGINX
  "$@" nginx -c "$work/nginx.conf" -p "$work"
  sleep 0.3
}
