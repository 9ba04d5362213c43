# The volume benchmark's common part, sourced by bench/volume/queries.sh and otel.sh after they
# set DSN (an owner login on the bench database) and REPS (interleaved rounds): LQE (the binary),
# TMP (a scratch dir, removed on exit), GATEWAY_DSN (the gateway role's login), iso and the timing
# helpers; measure appends one markdown row to ROWS and prints it on stderr.

LQE=${LQE_BIN:-$PWD/build/lqe}
TMP=$(mktemp -d /tmp/lqe-volume-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ROLE=$(psql "$DSN" -Atc "SELECT name FROM logs.gateway_role")
GATEWAY_DSN=$(echo "$DSN" | sed "s|//postgres@|//$ROLE@|")
echo "gateway role $ROLE: jit $(psql "$GATEWAY_DSN" -Atc 'SHOW jit'), work_mem $(psql "$GATEWAY_DSN" -Atc 'SHOW work_mem')"
# ISO 8601 UTC of `interval` ago, e.g. iso '1 hour'.
iso() { psql "$DSN" -Atc "SELECT to_char((now() - interval '$1') AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"; }

# One psql session per measurement, as a pooled gateway connection: a first EXECUTE warms the
# session (plpgsql helpers compiled), then every timed EXECUTE plans and runs the query again.
# RUNS timed executions; prints their times in ms.
time_sql() {
  local runs=$1 types=$2 params=$3 sql=$4
  {
    echo "SET plan_cache_mode = force_custom_plan;"
    echo "PREPARE q($types) AS $sql;"
    echo "EXECUTE q$params;"
    echo '\timing on'
    for _ in $(seq 1 "$runs"); do echo "EXECUTE q$params;"; done
  } | psql "$GATEWAY_DSN" -qAt -v ON_ERROR_STOP=1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
# median and p95 (nearest rank) of the numbers on stdin
stats() { sort -n | awk '{ v[NR] = $1 } END { p = int(NR * 0.95 + 0.999); if (p > NR) p = NR; printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[p] }'; }

ROWS=()
# measure NAME GOAL LQE_RUNS HAND_RUNS TYPES LQE_PARAMS LQE_SQL HAND_PARAMS HAND_SQL
measure() {
  local name=$1 goal=$2 lqe_runs=$3 hand_runs=$4 types=$5 lqe_params=$6 lqe_sql=$7 hand_params=$8 hand_sql=$9
  : >"$TMP/lqe.t"
  : >"$TMP/hand.t"
  for rep in $(seq 1 "$REPS"); do
    if [ $((rep % 2)) = 1 ]; then
      time_sql "$lqe_runs" "$types" "$lqe_params" "$lqe_sql" >>"$TMP/lqe.t"
      time_sql "$hand_runs" "$types" "$hand_params" "$hand_sql" >>"$TMP/hand.t"
    else
      time_sql "$hand_runs" "$types" "$hand_params" "$hand_sql" >>"$TMP/hand.t"
      time_sql "$lqe_runs" "$types" "$lqe_params" "$lqe_sql" >>"$TMP/lqe.t"
    fi
  done
  read -r lm lp < <(stats <"$TMP/lqe.t")
  read -r hm hp < <(stats <"$TMP/hand.t")
  local verdict
  verdict=$(awk -v l="$lm" -v h="$hm" -v goal="$goal" 'BEGIN {
    split(goal, g, " ");
    if (g[1] == "ms") { ok = l <= g[2]; printf "%s ≤ %s ms: %s", l, g[2], ok ? "met" : "missed"; exit }
    if (g[1] == "faster") { r = h / l; ok = r >= g[2]; printf "%.0f× faster (goal ≥ %s×): %s", r, g[2], ok ? "met" : "missed"; exit }
    if (g[1] == "ratio") { r = l / h; ok = r <= g[2]; printf "%.2f× (goal ≤ %s×): %s", r, g[2], ok ? "met" : "missed"; exit }
    printf "%.2f×", l / h }')
  ROWS+=("| $name | $lm ($lp) | $hm ($hp) | $verdict |")
  echo "${ROWS[-1]}" >&2
}

