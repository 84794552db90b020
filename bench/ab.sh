#!/usr/bin/env bash
# Old against new, paired: what a change bought on the rows of issue 22,
# read the way a noisy machine allows. compare.sh keeps each figure's best
# round, and one run's floors move by more than most changes do; here two
# builds of the server run back to back in every pair, in an order that
# rotates from pair to pair, with the row's floor in the same pair, and
# the table gives medians of the per-pair ratios and how many pairs the
# new one was ahead in.
#
#   bench/ab.sh OLD NEW                 # each a git revision or a directory holding everything-server
#   bench/ab.sh HEAD~1 HEAD             # a revision is built once, under build-ab/<commit>
#   PAIRS=10 bench/ab.sh OLD NEW        # pairs (default 6)
#   ROWS="requests stdio" bench/ab.sh OLD NEW   # rows (default: requests fanout stdio tracing)
#   QUICK=1 bench/ab.sh OLD NEW         # small sizes: a smoke run of the script
#   BENCH_BIN=DIR bench/ab.sh OLD NEW   # the load client and floors from DIR (no build)
#
# Rows (sizes as compare.sh's):
#   requests  tools/call over HTTP, 16 clients; against floor (c)
#   fanout    500 sessions, one update at a time; against floor (b), p99
#             against the paced floor's, and against floor (e) (the same
#             client and a bare HTTP server: the server's own cost)
#   stdio     one session, held with its client to one CPU; against floor (d)
#             held the same (the unpinned row measures the scheduler's
#             placement more than either server)
#   tracing   a storm to 500 sessions, untraced and traced (OTLP/JSON to
#             /dev/null), old and new: tracing's share of each
#   requests_tracing  (not by default) tools/call, 16 clients, the same way:
#             what a traced request costs
#   requests_threaded (not by default) tools/call, 16 clients, the tool on a
#             handler thread (--threaded-handlers, every tool's default);
#             against floor (c)
# Only the server differs between old and new: the load client and the
# floors are this checkout's. Everything on loopback.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old_spec=${1:?usage: bench/ab.sh OLD NEW (a git revision or a directory holding everything-server)}
new_spec=${2:?usage: bench/ab.sh OLD NEW}
rows=${ROWS:-requests fanout stdio tracing}
pairs=${PAIRS:-6}
bin=${BENCH_BIN:-$root/build/bin}
[[ -n "${BENCH_BIN:-}" ]] || BUILD_ONLY=1 "$root/bench/compare.sh"

# A directory holding everything-server, as it is; or a revision, built
# once (Release, the server alone) from `git archive` under build-ab/.
server_dir() {
  local spec=$1
  if [[ -x "$spec/everything-server" ]]; then
    (cd "$spec" && pwd)
    return
  fi
  local sha dir
  sha=$(git -C "$root" rev-parse --verify --quiet "$spec^{commit}") \
    || { echo "bench/ab.sh: $spec is neither a directory holding everything-server nor a revision" >&2; exit 2; }
  dir="$root/build-ab/$sha"
  if [[ ! -x "$dir/build/bin/everything-server" ]]; then
    echo "building $spec ($sha) in $dir ..." >&2
    rm -rf "$dir/src" && mkdir -p "$dir/src"
    git -C "$root" archive "$sha" | tar -x -C "$dir/src"
    local deps=()
    [[ ! -d "$root/.deps/valijson/usr/include" ]] || deps=(-DVALIJSON_INCLUDE_DIR="$root/.deps/valijson/usr/include")
    cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${deps[@]}" >/dev/null
    cmake --build "$dir/build" -j "${CAFMCP_JOBS:-2}" --target everything-server >/dev/null
  fi
  echo "$dir/build/bin"
}
old=$(server_dir "$old_spec")
new=$(server_dir "$new_spec")

if [[ -n "${QUICK:-}" ]]; then
  K=50 M=20 DUR=0.5 ROUNDS=20 STDIO=200
else
  K=500 M=100 DUR=3 ROUNDS=200 STDIO=2000
fi
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
results="$out/ab.jsonl"
: >"$results"
cpu0=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

pair=0
# `run VARIANT ROW CMD...`: one measurement, its JSON line tagged with the
# row, the variant and the pair (a failure is a line saying so; the run goes on).
run() {
  local variant=$1 row=$2
  shift 2
  echo "pair $pair: $row $variant ..." >&2
  local line
  if line=$("$@" 2>>"$out/stderr.log"); then
    python3 -c 'import json,sys; d=json.loads(sys.argv[4]); d.update(row=sys.argv[1], variant=sys.argv[2], pair=int(sys.argv[3])); print(json.dumps(d))' \
      "$row" "$variant" "$pair" "$line" >>"$results"
  else
    echo "{\"row\":\"$row\",\"variant\":\"$variant\",\"pair\":$pair,\"error\":\"exited $?\"}" >>"$results"
  fi
}
# The pair's measurements in an order turned by one place each pair: no
# variant always runs first, or always after the same one.
in_turn() { # names a function per item, then the items
  local fn=$1
  shift
  local items=("$@") n=$# k
  for ((k = 0; k < n; k++)); do "$fn" "${items[$(((k + pair) % n))]}"; done
}
server() { echo "$([[ $1 == old ]] && echo "$old" || echo "$new")/everything-server"; }
load() { "$bin/cafmcp-load" --json "$@"; }

# `calls ROW VARIANT [SERVER_FLAGS]`: tools/call, 16 clients.
calls() {
  case $2 in
    floor) run floor "$1" load --server "$bin/http-request-floor" --mode requests -c 16 --duration "$DUR" ;;
    *) run "$2" "$1" load --server "$(server "$2") --http --port 0${3:-}" --mode requests -c 16 --duration "$DUR" ;;
  esac
}
requests() { calls requests "$1"; }
requests_threaded() { calls requests_threaded "$1" " --threaded-handlers"; }
fanout() {
  case $1 in
    floor) run floor fanout "$bin/sse-socket-floor" "$K" "$ROUNDS" --json
      run paced fanout "$bin/sse-socket-floor" "$K" $((M * 3)) --one-at-a-time --json
      run bare fanout load --server "$bin/http-fanout-floor" -k "$K" -m $((M * 3)) ;;
    *) run "$1" fanout load --server "$(server "$1") --http --port 0" -k "$K" -m $((M * 3)) ;;
  esac
}
stdio() {
  case $1 in
    floor) run floor stdio taskset -c "$cpu0" "$bin/cafmcp-load" --json --server "$bin/stdio-echo-floor" --stdio -k 1 -m "$STDIO" ;;
    *) run "$1" stdio taskset -c "$cpu0" "$bin/cafmcp-load" --json --server "$(server "$1") --stdio" --stdio -k 1 -m "$STDIO" ;;
  esac
}
# `traced ROW VARIANT LOAD_ARGS...`: VARIANT is old_plain, old_traced,
# new_plain or new_traced; traced, every span goes out as OTLP/JSON to
# /dev/null, the queue holding a whole run (nothing dropped).
traced() {
  local row=$1 variant=$2 flags=""
  shift 2
  [[ ${variant#*_} == plain ]] || flags=" --trace-file /dev/null"
  run "$variant" "$row" env OTEL_BSP_MAX_QUEUE_SIZE=262144 "$bin/cafmcp-load" --json \
    --server "$(server "${variant%_*}") --http --port 0$flags" "$@"
}
tracing() { traced tracing "$1" -k "$K" -m $((M * 16)) -w 16 -u 4 --window 32; }
requests_tracing() { traced requests_tracing "$1" --mode requests -c 16 --duration "$DUR"; }

for ((pair = 1; pair <= pairs; pair++)); do
  for row in $rows; do
    case $row in
      requests | requests_threaded | fanout | stdio) in_turn "$row" floor old new ;;
      tracing | requests_tracing) in_turn "$row" old_plain old_traced new_plain new_traced ;;
      *) echo "bench/ab.sh: no row $row (requests requests_threaded fanout stdio tracing requests_tracing)" >&2; exit 2 ;;
    esac
  done
done

echo "old: $old_spec ($old)"
echo "new: $new_spec ($new)"
echo "(raw results: $results)" >&2
python3 "$root/bench/ab_table.py" "$results"
