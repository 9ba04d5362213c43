#!/usr/bin/env bash
# Side-by-side HTTP benchmark: lqe serve answering cache hits of a stored endpoint vs nginx-light
# serving the identical bytes as a static file, both measured with wrk in one run; also the
# p99 at 64 connections, the time a miss adds over the bare query, and idle RSS.
#
# usage: bench/http/run.sh [path/to/lqe]     (default: build/lqe; build it Release first)
# env:   DURATION (default 10s), CONNECTIONS (64), THREADS (2), EVENTS (edge events, 50000),
#        IO_THREADS (lqe's io_threads; default 0 = one per core),
#        PIN=1: servers on CPU 0 only (lqe with 1 I/O thread, nginx with 1 worker), wrk on the
#        other CPUs, so the load generator does not compete with the server it measures
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LQE=${1:-$ROOT/build/lqe}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
EVENTS=${EVENTS:-50000}
IO_THREADS=${IO_THREADS:-0}
PIN=${PIN:-0}
server_cpu=() client_cpu=() nginx_workers=$(nproc)
if [[ $PIN == 1 ]]; then
  IO_THREADS=1 nginx_workers=1
  server_cpu=(taskset -c 0) client_cpu=(taskset -c "1-$(($(nproc) - 1))")
fi
source "$ROOT/deploy/lib/pg-cluster.sh"

work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
  [[ -n ${lqe_pid:-} ]] && kill "$lqe_pid" 2>/dev/null || true
  [[ -f $work/nginx.pid ]] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  pg_cluster_stop "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT

pg_port=$(pg_free_port)
pg_cluster_init "$work/pg"
pg_cluster_start "$work/pg" "$pg_port"
admin="postgresql://postgres@127.0.0.1:$pg_port/postgres"
psql "$admin" -qc "CREATE DATABASE lqe" >/dev/null
dsn="postgresql://postgres@127.0.0.1:$pg_port/lqe"
"$LQE" migrate --dsn "$dsn" --gateway-role lqe_gateway_lqe >/dev/null
"$LQE" generate --source edge --count "$EVENTS" --seed 42 | "$LQE" load --dsn "$dsn" --source edge >/dev/null

key=$("$LQE" keygen --sha256-file "$work/key.sha256" | awk '/^api_key:/ {print $2}')
gw_port=$(pg_free_port)
cat >"$work/gw.yaml" <<YAML
listen: 127.0.0.1:$gw_port
io_threads: $IO_THREADS
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
endpoints_dir: $ROOT/sql
YAML
"${server_cpu[@]}" "$LQE" serve --config "$work/gw.yaml" &
lqe_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$gw_port/health" >/dev/null && break
  sleep 0.1
done
idle_rss_kb=$(ps -o rss= -p "$lqe_pid" | tr -d ' ')

path="/api/endpoints/query/usage.api-counts?interval=daily&project=.%2A"
url="http://127.0.0.1:$gw_port$path"
miss_time=$(curl -s -o "$work/body.json" -w '%{time_total}' -H "X-API-KEY: $key" "$url")
hit_time=$(curl -s -o /dev/null -w '%{time_total}' -H "X-API-KEY: $key" "$url")
cache_state=$(curl -s -D - -o /dev/null -H "X-API-KEY: $key" "$url" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache" {print $2}')

mkdir -p "$work/www"
cp "$work/body.json" "$work/www/counts.json"
ng_port=$(pg_free_port)
cat >"$work/nginx.conf" <<NGINX
worker_processes $nginx_workers;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  default_type application/json;
  server {
    listen 127.0.0.1:$ng_port;
    root $work/www;
  }
}
NGINX
"${server_cpu[@]}" nginx -c "$work/nginx.conf" -p "$work"
sleep 0.3

run_wrk() {
  "${client_cpu[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@"
}
# CPU seconds (user + system) lqe has used so far, from /proc: less noisy than req/s on a shared VM.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f %.3f", $14 / hz, $15 / hz}' "/proc/$lqe_pid/stat"; }
echo "== lqe serve, cache hit: GET $path"
cpu0=$(cpu_seconds)
lqe_out=$(run_wrk -H "X-API-KEY: $key" "$url")
cpu1=$(cpu_seconds)
echo "$lqe_out"
echo "== nginx-light, same $(stat -c %s "$work/www/counts.json") bytes as a static file"
ng_out=$(run_wrk "http://127.0.0.1:$ng_port/counts.json")
echo "$ng_out"
busy_rss_kb=$(ps -o rss= -p "$lqe_pid" | tr -d ' ')

rps() { awk '/^Requests\/sec/ {print $2}' <<<"$1"; }
p99() { awk '$1=="99%" {print $2}' <<<"$1"; }
lqe_rps=$(rps "$lqe_out")
ng_rps=$(rps "$ng_out")

# Miss overhead: server-side request time minus time spent in Postgres, over uncached requests
# (logs.all has cache_seconds 0), from the /metrics histograms' sums.
metric() { curl -s "http://127.0.0.1:$gw_port/metrics" | awk -v m="$1" '$1==m {print $2}'; }
# usage: miss_overhead [curl args]: 50 uncached logs.all requests; prints the mean time the
# gateway added over the query, and the query's own mean time.
miss_overhead() {
  local req0 q0 n0 req1 q1 n1 i
  req0=$(metric lqe_request_duration_seconds_sum); q0=$(metric lqe_query_duration_seconds_sum)
  n0=$(metric lqe_query_duration_seconds_count)
  for i in $(seq 1 50); do
    curl -s -o /dev/null "$@" -H "X-API-KEY: $key" \
      "http://127.0.0.1:$gw_port/api/endpoints/query/logs.all?project=default&iso_timestamp_end=2030-01-0$(( i % 9 + 1 ))T00:00:0$(( i % 10 ))Z"
  done
  req1=$(metric lqe_request_duration_seconds_sum); q1=$(metric lqe_query_duration_seconds_sum)
  n1=$(metric lqe_query_duration_seconds_count)
  awk -v r0="$req0" -v r1="$req1" -v q0="$q0" -v q1="$q1" -v n0="$n0" -v n1="$n1" \
    'BEGIN {n = n1 - n0; if (n <= 0) {print "n/a"; exit} printf "%.3f ms (query alone %.3f ms)", ((r1 - r0) - (q1 - q0)) * 1000 / n, (q1 - q0) * 1000 / n}'
}
miss_overhead_ms=$(miss_overhead)
miss_overhead_gzip_ms=$(miss_overhead -H "Accept-Encoding: gzip")
listing_bytes=$(curl -s -o /dev/null -w '%{size_download}' -H "X-API-KEY: $key" \
  "http://127.0.0.1:$gw_port/api/endpoints/query/logs.all?project=default")
cat <<REPORT

== summary ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))
wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency$([[ $PIN == 1 ]] && echo "; PIN=1: servers on CPU 0 (lqe io_threads 1, nginx 1 worker), wrk on the rest")
lqe cache hit:     $lqe_rps req/s, p99 $(p99 "$lqe_out")   (X-Cache: $cache_state)
nginx static file: $ng_rps req/s, p99 $(p99 "$ng_out")
ratio lqe/nginx:   $(awk -v a="$lqe_rps" -v b="$ng_rps" 'BEGIN {printf "%.2f", a / b}')
lqe CPU per hit:   $(awk -v c0="$cpu0" -v c1="$cpu1" -v n="$(awk '/requests in/ {print $1}' <<<"$lqe_out")" 'BEGIN {split(c0, a, " "); split(c1, b, " "); u = (b[1] - a[1]) * 1e6 / n; k = (b[2] - a[2]) * 1e6 / n; printf "%.1f us (user %.1f, system %.1f)", u + k, u, k}')
first request (miss) ${miss_time}s, second (hit) ${hit_time}s (curl time_total, one new connection each)
miss overhead over the query (logs.all, 50 uncached requests, $listing_bytes bytes each):
  plain: $miss_overhead_ms
  gzip:  $miss_overhead_gzip_ms
lqe RSS: idle ${idle_rss_kb} KiB, after the load ${busy_rss_kb} KiB
REPORT
