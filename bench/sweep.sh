#!/usr/bin/env bash
# Which `--scheduler-threads` and `--event-loops` suit a machine: the two
# HTTP rows still short of their targets (issue 22), for every setting,
# each against its floor measured in the same round.
#
#   bench/sweep.sh                         # threads: default 1 2 4 8; loops: 1 2 4
#   THREADS="default 2" LOOPS="1 2" bench/sweep.sh
#   SPINS="default 2000" bench/sweep.sh    # --scheduler-spin-polls too (default: the server's)
#   BENCH_BIN=DIR bench/sweep.sh           # binaries packed by bench/bundle.sh
#   ROUNDS_EACH=2 bench/sweep.sh           # rounds (default 1); each figure's best round
#   QUICK=1 bench/sweep.sh                 # small sizes: a smoke run of the script
#
# Rows: tools/call over HTTP with 16 clients (requests/s, the server's CPU
# per request, against floor (c)) and fan-out to 500 sessions one update at
# a time (notifications/s against floor (b), p99 against the paced floor's).
# The server's CPU per request or delivery is the figure to read on a noisy
# machine; throughput on a quiet one. Everything on loopback; a run takes
# about 25 s per setting on 16 cores (QUICK: about 3 s).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BENCH_BIN:-$root/build/bin}
if [[ -z "${BENCH_BIN:-}" ]]; then
  BUILD_ONLY=1 "$root/bench/compare.sh"
fi
if [[ -n "${QUICK:-}" ]]; then
  K=50 M=60 DUR=0.5 ROUNDS=20
else
  K=500 M=300 DUR=3 ROUNDS=200
fi
out=${BENCH_OUT:-$(mktemp -d)}
results="$out/sweep.jsonl"
: >"$results"

# shellcheck source=bench/load_row.sh
source "$root/bench/load_row.sh"

for round in $(seq "${ROUNDS_EACH:-1}"); do
  echo "round $round: floors ..." >&2
  "$bin/sse-socket-floor" "$K" "$ROUNDS" --json | sed 's/^{/{"label":"floor_sse",/' >>"$results"
  "$bin/sse-socket-floor" "$K" "$M" --one-at-a-time --json \
    | sed 's/^{/{"label":"floor_sse_one_at_a_time",/' >>"$results"
  load floor_requests "$bin/http-request-floor" --mode requests -c 16 --duration "$DUR"
  for threads in ${THREADS:-default 1 2 4 8}; do
    for loops in ${LOOPS:-1 2 4}; do
      for spins in ${SPINS:-default}; do
        flags="--event-loops $loops"
        [[ $threads == default ]] || flags+=" --scheduler-threads $threads"
        [[ $spins == default ]] || flags+=" --scheduler-spin-polls $spins"
        server="$bin/everything-server --http --port 0 $flags"
        setting="threads=$threads loops=$loops spins=$spins"
        load "requests $setting" "$server" --mode requests -c 16 --duration "$DUR"
        load "fanout $setting" "$server" -k "$K" -m "$M"
      done
    done
  done
done

python3 - "$results" <<'PY'
import json, sys

best = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    label = r["label"]
    if r.get("error"):
        print(f"{label}: {r['error']}")
        continue
    if label not in best or (r.get("rate_per_s") or 0) > (best[label].get("rate_per_s") or 0):
        best[label] = r

def get(label, key="rate_per_s"):
    return best.get(label, {}).get(key)

floor_c, floor_b = get("floor_requests"), get("floor_sse")
paced_p99 = get("floor_sse_one_at_a_time", "p99_us")
print(f"floor (c): {floor_c or 0:,.0f} req/s; floor (b): {floor_b or 0:,.0f} notif/s; "
      f"paced floor p99: {paced_p99 or 0:,.0f} us")
print("| threads | loops | spin polls | tools/call req/s | / floor (c) | server us/req | fan-out notif/s | / floor (b) "
      "| p99 us | / paced p99 | server us/delivery |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
settings = sorted({l.split(" ", 1)[1] for l in best if l.startswith(("requests ", "fanout "))})
for s in settings:
    t, l, sp = (kv.split("=")[1] for kv in s.split())
    req, fan = f"requests {s}", f"fanout {s}"
    def ratio(a, b):
        return f"{a / b:.2f}x" if a and b else "-"
    def num(v, f="{:,.0f}"):
        return f.format(v) if v is not None else "-"
    print(f"| {t} | {l} | {sp} | {num(get(req))} | {ratio(get(req), floor_c)} "
          f"| {num(get(req, 'server_cpu_us_per_item'), '{:.1f}')} | {num(get(fan))} | {ratio(get(fan), floor_b)} "
          f"| {num(get(fan, 'p99_us'))} | {ratio(get(fan, 'p99_us'), paced_p99)} "
          f"| {num(get(fan, 'server_cpu_us_per_item'), '{:.1f}')} |")
lost = [l for l, r in best.items() if r.get("lost") or r.get("duplicated") or r.get("out_of_order")]
print("lost, duplicated or out of order:", ", ".join(lost) if lost else "none")
PY
echo "(raw results: $results)" >&2
