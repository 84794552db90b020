#!/usr/bin/env bash
# Builds and runs every benchmark in one go (a few minutes on 2 cores) and
# prints one table: cafmcp vs the official TypeScript SDK server vs the
# machine's floor measured in the same run, with ratios.
#
#   bench/compare.sh            # full sizes (the BENCHMARKS.md table)
#   QUICK=1 bench/compare.sh    # small sizes, a smoke run of the script itself
#   ROUNDS_EACH=3 bench/compare.sh  # rounds (default 2); the table keeps the best
#   SCALE=1 bench/compare.sh    # also 10,000 sessions (about 7 more minutes a round)
#   SCALE=cafmcp bench/compare.sh   # 10,000 sessions without the TS SDK's rows (its storm alone is 5 minutes)
#   BENCH_BIN=DIR bench/compare.sh  # binaries built elsewhere (bench/bundle.sh): no install, no build
#   SERVER_FLAGS='--scheduler-threads 4' bench/compare.sh   # extra flags for every cafmcp HTTP server row
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
targets=(everything-server cafmcp-load sse-socket-floor caf-fanout-floor http-request-floor http-fanout-floor stdio-echo-floor
  cafmcp-micro bench-tracing-cost bench-inprocess-memory)
if [[ -n "${LIST_TARGETS:-}" ]]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi
bin=${BENCH_BIN:-$root/build/bin}

if [[ -z "${BENCH_BIN:-}" ]]; then
  # A fresh clone: what the build and the TS peer need (idempotent; apt and npm).
  if [[ ! -d "$root/bench/peers/ts/node_modules" || ! -d "$root/.deps/valijson" ]]; then
    "$root/scripts/install-deps" >&2
  fi
  if [[ ! -f "$root/build/build.ninja" ]]; then
    cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$root/build" -j "${CAFMCP_JOBS:-2}" --target "${targets[@]}" >/dev/null
fi
[[ -z "${BUILD_ONLY:-}" ]] || exit 0
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
results="$out/results.jsonl"
: >"$results"

cafmcp="$bin/everything-server --http --port 0${SERVER_FLAGS:+ $SERVER_FLAGS}"
# Tracing on: always_on (the default sampler follows the request spans,
# which are sampled), batch processor, every span encoded as OTLP/JSON and
# written out. Written to /dev/null, the figure is the server's own cost;
# piped (stderr, which cafmcp-load reads and discards), the reader of
# ~0.5 KB per span shares the two cores too, as a collector on the same
# machine would.
# The span queue holds a storm's spans (the OTel default, 2048, is four
# broadcasts to 500 sessions: under a storm it drops, and says so on stderr):
# the cost measured is that of exporting every span.
queue="OTEL_BSP_MAX_QUEUE_SIZE=262144"
cafmcp_traced="env $queue $cafmcp --trace-file /dev/null"
cafmcp_traced_piped="env $queue OTEL_TRACES_EXPORTER=console $cafmcp"
ts="node $root/bench/peers/ts/server.mjs --http --port 0"
if [[ -n "${QUICK:-}" ]]; then
  K=50 M=20 KMEM=500 KMEM_TS=100 DUR=0.5 NFLOOR=50 ROUNDS=20 ACTORS=100
else
  K=500 M=100 KMEM=10000 KMEM_TS=1000 DUR=3 NFLOOR=500 ROUNDS=200 ACTORS=1000
fi

# The JWT row's issuer (bench/auth/issuer.mjs): metadata, JWKS, one token.
audience=http://bench.local/mcp
node "$root/bench/auth/issuer.mjs" "$audience" >"$out/issuer.json" &
issuer_pid=$!
for _ in $(seq 100); do [[ -s "$out/issuer.json" ]] && break; sleep 0.1; done
issuer=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["issuer"])' "$out/issuer.json")
token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["token"])' "$out/issuer.json")

# shellcheck source=bench/load_row.sh
source "$root/bench/load_row.sh"

# The cluster rows: one node with --cluster against the same node without
# (cafmcp_fanout, same round), and three nodes behind haproxy, on a Redis
# change log started here on a free loopback port and stopped at the end.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --logfile "$out/redis.log" &
redis_pid=$!
cleanup() {
  kill "$redis_pid" "$issuer_pid" 2>/dev/null || true
  wait "$redis_pid" "$issuer_pid" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
cluster="--cluster redis://127.0.0.1:$redis_port --cluster-secret bench"

# N nodes and haproxy in front; haproxy pins each session to the node that
# created it (a stick table on Mcp-Session-Id), as a deployment would to
# spare the copies another node makes of a session it serves (any node can:
# test/interop/cluster.test.mjs runs without affinity). One node without a
# cluster behind it measures what haproxy alone costs.
behind_haproxy() { # label, nodes, server flags, load args...
  local label=$1 nodes=$2 flags=$3
  shift 3
  echo "running $label ..." >&2
  local proxy_port pids=() servers="" i
  proxy_port=$(free_port)
  for i in $(seq "$nodes"); do
    local port
    port=$(free_port)
    "$bin/everything-server" --http --port "$port" --allowed-host "127.0.0.1:$proxy_port" $flags ${SERVER_FLAGS:-} \
      --node-id "n$i" 2>>"$out/nodes.log" &
    pids+=($!)
    servers+="  server n$i 127.0.0.1:$port check inter 1s"$'\n'
  done
  cat >"$out/haproxy.cfg" <<CFG
defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  option http-server-close
frontend mcp
  bind 127.0.0.1:$proxy_port
  default_backend nodes
backend nodes
  balance roundrobin
  stick-table type string len 64 size 100k
  stick store-response res.hdr(mcp-session-id)
  stick match req.hdr(mcp-session-id)
  option httpchk
  http-check send meth GET uri /healthz
$servers
CFG
  haproxy -f "$out/haproxy.cfg" -db 2>>"$out/haproxy.log" &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$proxy_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  "$bin/cafmcp-load" --url "http://127.0.0.1:$proxy_port/mcp" --label "$label" --json "$@" >>"$results" \
    || echo "{\"label\":\"$label\",\"error\":\"cafmcp-load exited $?\"}" >>"$results"
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}

# The first two CPUs this script may run on: the stdio rows with their
# placement held use them (none on a one-CPU machine).
read -ra cpus <<<"$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2])')"

# Shared machines are noisy: every round runs the floors and the servers
# back to back, and the table keeps each figure's best round.
for round in $(seq "${ROUNDS_EACH:-2}"); do
  echo "round $round" >&2
  echo "floors ..." >&2
  "$bin/sse-socket-floor" "$NFLOOR" "$ROUNDS" --json | sed 's/^{/{"label":"floor_sse",/' >>"$results"
  "$bin/sse-socket-floor" $((NFLOOR * 10)) $((ROUNDS / 10)) --json | sed 's/^{/{"label":"floor_sse_10x",/' >>"$results"
  "$bin/caf-fanout-floor" "$ACTORS" 300 --json | sed 's/^{/{"label":"floor_caf",/' >>"$results"
  # As many rounds as cafmcp_fanout has updates: its p99 is read against this one's.
  "$bin/sse-socket-floor" "$K" $((M * 3)) --one-at-a-time --json \
    | sed 's/^{/{"label":"floor_sse_one_at_a_time",/' >>"$results"

  load cafmcp_fanout "$cafmcp" -k "$K" -m $((M * 3)) # more rounds: one hiccup is then under 1% (p99)
  # Floor (e): the same load against a bare HTTP server that does no work
  # of its own (limits/http_fanout_floor.cpp), right after cafmcp's run.
  load floor_fanout "$bin/http-fanout-floor" -k "$K" -m $((M * 3))
  load cafmcp_fanout_clustered "$cafmcp $cluster --cluster-prefix clustered-$round" -k "$K" -m $((M * 3))
  behind_haproxy cafmcp_fanout_haproxy 1 "" -k "$K" -m $((M * 3))
  behind_haproxy cafmcp_fanout_3_nodes 3 "$cluster --cluster-prefix 3n-$round" -k "$K" -m $((M * 3))
  behind_haproxy cafmcp_storm_3_nodes 3 "$cluster --cluster-prefix 3s-$round" -k "$K" -m $((M * 16)) -w 16 -u 4 --window 32
  load ts_fanout "$ts" -k "$K" -m "$M"
  load cafmcp_fanout_traced "$cafmcp_traced" -k "$K" -m $((M * 3))
  load cafmcp_storm "$cafmcp" -k "$K" -m $((M * 16)) -w 16 -u 4 --window 32
  load cafmcp_storm_traced "$cafmcp_traced" -k "$K" -m $((M * 16)) -w 16 -u 4 --window 32
  load cafmcp_storm_traced_piped "$cafmcp_traced_piped" -k "$K" -m $((M * 16)) -w 16 -u 4 --window 32
  load ts_storm "$ts" -k "$K" -m $((M * 4)) -w 16 -u 4 --window 32
  # Floors (c) and (d): a bare server answering the same load (limits/).
  load floor_requests "$bin/http-request-floor" --mode requests -c 16 --duration "$DUR"
  load floor_stdio "$bin/stdio-echo-floor" --stdio -k 1 -m $((M * 20))
  load cafmcp_requests "$cafmcp" --mode requests -c 16 --duration "$DUR"
  load cafmcp_requests_threaded "$cafmcp --threaded-handlers" --mode requests -c 16 --duration "$DUR"
  # Every request carries a JWT the server verifies (ES256 against the
  # issuer's JWKS; a token seen before costs a cache lookup per loop).
  load cafmcp_requests_jwt "$cafmcp --auth-issuer $issuer --resource-uri $audience" --mode requests -c 16 \
    --duration "$DUR" --bearer-token "$token"
  load ts_requests "$ts" --mode requests -c 16 --duration "$DUR"
  load cafmcp_stdio "$bin/everything-server --stdio" --stdio -k 1 -m $((M * 20))
  load ts_stdio "node $root/bench/peers/ts/server.mjs --stdio" --stdio -k 1 -m $((M * 20))
  # stdio again over ten times the updates: a blocking reader is fast only
  # while the scheduler keeps it on its client's CPU, and 2,000 updates
  # (~50 ms) can end before the two drift apart; 20,000 show the steady
  # state. Floor (d') polls before it reads, as cafmcp's reader does.
  load floor_stdio_spin "$bin/stdio-echo-floor --spin" --stdio -k 1 -m $((M * 20))
  load floor_stdio_long "$bin/stdio-echo-floor" --stdio -k 1 -m $((M * 200))
  load floor_stdio_spin_long "$bin/stdio-echo-floor --spin" --stdio -k 1 -m $((M * 200))
  load cafmcp_stdio_long "$bin/everything-server --stdio" --stdio -k 1 -m $((M * 200))
  load ts_stdio_long "node $root/bench/peers/ts/server.mjs --stdio" --stdio -k 1 -m $((M * 200))
  # stdio with its placement held (taskset): a blocking echo is fast on its
  # client's CPU and slow on another (every line a wake-up across CPUs each
  # way), so an unpinned row can read a server in one mode against floor (d)
  # in the other. Here each runs on its client's CPU, then on a CPU of its
  # own, and is read against the floor placed the same way.
  if (( ${#cpus[@]} >= 2 )); then
    for where in one_cpu two_cpus; do
      on=""
      [[ $where == one_cpu ]] || on="taskset -c ${cpus[1]} "
      load_on "${cpus[0]}" "floor_stdio_$where" "$on$bin/stdio-echo-floor" --stdio -k 1 -m $((M * 20))
      load_on "${cpus[0]}" "cafmcp_stdio_$where" "$on$bin/everything-server --stdio" --stdio -k 1 -m $((M * 20))
      load_on "${cpus[0]}" "ts_stdio_$where" "${on}node $root/bench/peers/ts/server.mjs --stdio" --stdio -k 1 -m $((M * 20))
    done
  fi
  # 10,000 GET streams and the setup's own connections: past the server's
  # default connection limit (10,000), raised as for the 10k rows.
  load cafmcp_idle "$cafmcp --max-connections 30000" -k "$KMEM" -m 0 --setup-parallel 32
  load ts_idle "$ts" -k "$KMEM_TS" -m 0 --setup-parallel 32
  if [[ -n "${SCALE:-}" ]]; then
    # 10,000 sessions with GET streams (minutes: the TS SDK's storm alone
    # takes five). Floor (b) holds both ends of its sockets in one process,
    # so the open-file limit caps it: as close to 10,000 as the limit allows.
    # As many rounds as the 10k fan-out has updates (60): with 20 the floor
    # came out ~20% lower (its reader takes more frames per read the longer
    # the writer streams), which flattered the ratio. Paced one round at a
    # time too: what one update at a time allows at this scale.
    nfloor=$(( ($(ulimit -n) - 64) / 2 )); (( nfloor > 10000 )) && nfloor=10000
    "$bin/sse-socket-floor" "$nfloor" 60 --json | sed 's/^{/{"label":"floor_sse_10k",/' >>"$results"
    "$bin/sse-socket-floor" "$nfloor" 60 --one-at-a-time --json \
      | sed 's/^{/{"label":"floor_sse_10k_one_at_a_time",/' >>"$results"
    big="$cafmcp --max-connections 30000"
    load cafmcp_fanout_10k "$big" -k 10000 -m 60 --setup-parallel 32
    # Floor (e) at 10,000 streams, right after: floor (b) at this scale
    # moved 157-181k/s between runs, and this one, driven by the same
    # client, says what the server's own work costs at this scale.
    load floor_fanout_10k "$bin/http-fanout-floor" -k 10000 -m 60 --setup-parallel 32
    load cafmcp_storm_10k "$big" -k 10000 -m 640 -w 16 -u 4 --window 32 --setup-parallel 32
    if [[ $SCALE != cafmcp ]]; then
      load ts_fanout_10k "$ts" -k 10000 -m 20 --setup-parallel 32 --timeout 60
      load ts_storm_10k "$ts" -k 10000 -m 160 -w 16 -u 4 --window 32 --setup-parallel 32 --timeout 60
    fi
  fi
done

echo "in-process ..." >&2
"$bin/bench-inprocess-memory" "$KMEM" --json | sed 's/^{/{"label":"cafmcp_inprocess_idle",/' >>"$results"
"$bin/cafmcp-micro" --benchmark_filter="notifier_broadcast/$ACTORS/" --benchmark_format=json --benchmark_min_time=0.5 \
  2>/dev/null | python3 -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; print(json.dumps({"label":"cafmcp_notifier","rate_per_s":b["items_per_second"]}))' >>"$results"
tracing=$("$bin/bench-tracing-cost" "$K" 2000 | grep 'of throughput (median' | tail -1 | grep -o '[-0-9.]*%' | head -1 | tr -d %)
echo "{\"label\":\"tracing_cost\",\"percent\":${tracing:-null}}" >>"$results"

python3 "$root/bench/table.py" "$results"
echo "(raw results: $results)" >&2
