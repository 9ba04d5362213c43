#!/usr/bin/env bash
# Sourced. serve_lqe_start WRITE_CONFIG DIR: starts `lqe serve` ($LQE, default build/lqe) with
# the config that
# `WRITE_CONFIG <port>` writes to DIR/lqe.yaml (log in DIR/serve.log) and waits for /ready; sets
# LQE_PORT and SERVE_PID. A free port can be taken between the probe and the bind, so a start
# that lost its port is tried again on another (five in all). Returns 1, the log printed, when
# lqe never became ready. Needs pg_free_port (pg-cluster.sh).
serve_lqe_start() {
  local write_config=$1 dir=$2 _attempt
  for _attempt in 1 2 3 4 5; do
    LQE_PORT=$(pg_free_port)
    "$write_config" "$LQE_PORT"
    "${LQE:-build/lqe}" serve --config "$dir/lqe.yaml" >"$dir/serve.log" 2>&1 &
    SERVE_PID=$!
    for _ in $(seq 1 100); do
      if curl -fsS "http://127.0.0.1:$LQE_PORT/ready" >/dev/null 2>&1; then return 0; fi
      kill -0 "$SERVE_PID" 2>/dev/null || break
      sleep 0.2
    done
    kill "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
    SERVE_PID=""
    grep -q 'Address already in use' "$dir/serve.log" || break
  done
  cat "$dir/serve.log" >&2
  return 1
}
