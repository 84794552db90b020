"""Prints compare.sh's table from its JSON lines (one per run)."""
import json
import statistics
import sys

runs = {}
all_runs = {}  # label -> every round's run, in round order
failures = {}  # label -> what went wrong in any round (the best round alone could hide it)
for line in open(sys.argv[1]):
    line = line.strip()
    if line:
        r = json.loads(line)
        label = r.get("label", "")
        bad = (r.get("lost") or 0) + (r.get("duplicated") or 0) + (r.get("out_of_order") or 0)
        if bad or r.get("error"):
            failures.setdefault(label, []).append(
                f"lost={r.get('lost')} dup={r.get('duplicated')} ooo={r.get('out_of_order')} {r.get('error', '')}".strip())
        # A traced run whose server dropped spans measured less than tracing.
        dropped = [m for m in r.get("server_messages", []) if "dropping spans" in m]
        if dropped:
            failures.setdefault(label, []).append("server dropped spans: " + dropped[0])
        all_runs.setdefault(label, []).append(r)
        best = runs.get(label)
        # Several rounds: keep the fastest (noise only ever slows a run down).
        if best is None or (r.get("rate_per_s") or 0) > (best.get("rate_per_s") or 0):
            runs[label] = r


def get(label, key="rate_per_s"):
    r = runs.get(label) or {}
    return r.get(key)


def fmt(v, unit=""):
    if v is None:
        return "n/a"
    if isinstance(v, float) and v < 100:
        return f"{v:.2f}{unit}"
    return f"{v:,.0f}{unit}"


def ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "n/a"


def correctness(label):
    if label not in runs:
        return "n/a"
    return "FAIL " + "; ".join(failures[label]) if label in failures else "ok"


rows = []
sse = get("floor_sse")
caf = get("floor_caf")
k = get("cafmcp_fanout", "sessions")
rows.append((f"HTTP fan-out, {k} sessions, one update at a time (notif/s)", get("cafmcp_fanout"), get("ts_fanout"), sse,
             ">= 0.6x floor(b), >= 5x TS"))
# The floor column of the latency rows is floor (b) one round at a time: one
# write per frame and nothing else, so its p99 is the least any server that
# writes each delivery from one thread could show in this run.
paced = "floor_sse_one_at_a_time"
rows.append(("  p99 mutation->delivery latency (us)", get("cafmcp_fanout", "p99_us"), get("ts_fanout", "p99_us"),
             get(paced, "p99_us"), "<= 0.1x TS"))
rows.append(("  p50 latency (us)", get("cafmcp_fanout", "p50_us"), get("ts_fanout", "p50_us"), get(paced, "p50_us"), ""))
# Floor (e): the same client against a bare HTTP server (no work of its own):
# what one update at a time reaches here with this client and HTTP, so the
# ratio is the server's own cost per delivery.
rows.append(("  the same against floor (e), a bare HTTP fan-out driven by the same client (notif/s)",
             get("cafmcp_fanout"), None, get("floor_fanout"), ""))
rows.append(("    server CPU per delivery (us; floor (e)'s in the floor column)", get("cafmcp_fanout", "server_cpu_us_per_item"),
             get("ts_fanout", "server_cpu_us_per_item"), get("floor_fanout", "server_cpu_us_per_item"), ""))
# The paced floor's reader is in its own process, not an HTTP client: floor
# (e)'s p99, read by the same client as cafmcp's, is the like-for-like one.
rows.append(("    p99 latency against floor (e)'s (us)", get("cafmcp_fanout", "p99_us"), None,
             get("floor_fanout", "p99_us"), ""))
rows.append((f"HTTP storm, {k} sessions, 16 drivers x window 32 (notif/s)", get("cafmcp_storm"), get("ts_storm"), sse, ">= 1.5x floor(b)"))
rows.append(("  p99 latency (us)", get("cafmcp_storm", "p99_us"), get("ts_storm", "p99_us"), None, ""))
rows.append(("stdio, 1 session, one update at a time (notif/s)", get("cafmcp_stdio"), get("ts_stdio"), get("floor_stdio"),
             ">= 3x TS, >= 0.5x floor(d)"))
rows.append(("  p99 latency (us)", get("cafmcp_stdio", "p99_us"), get("ts_stdio", "p99_us"), get("floor_stdio", "p99_us"), ""))
# The same against floor (d'), an echo that polls before it reads, and both
# floors again over ten times the updates (compare.sh: the scheduler's
# steady state), where only the labels exist.
if "floor_stdio_spin" in runs:
    rows.append(("  the same against floor (d'), the echo polling before each read (notif/s)", get("cafmcp_stdio"),
                 get("ts_stdio"), get("floor_stdio_spin"), ""))
if "cafmcp_stdio_long" in runs:
    n = get("cafmcp_stdio_long", "mutations")
    rows.append((f"stdio over {fmt(n)} updates, one at a time (notif/s; floor (d))", get("cafmcp_stdio_long"),
                 get("ts_stdio_long"), get("floor_stdio_long"), ">= 3x TS, >= 0.5x floor(d)"))
    rows.append(("  the same against floor (d'), polling", get("cafmcp_stdio_long"), get("ts_stdio_long"),
                 get("floor_stdio_spin_long"), ""))
    rows.append(("  p99 latency (us; floor (d))", get("cafmcp_stdio_long", "p99_us"), get("ts_stdio_long", "p99_us"),
                 get("floor_stdio_long", "p99_us"), ""))
# stdio with its placement held (compare.sh, taskset): the server on its
# client's CPU, then on a CPU of its own, each against floor (d) placed the
# same way, so that server and floor cannot land in different modes.
placed = [("one_cpu", "on its client's CPU", "on one CPU"), ("two_cpus", "and its client on a CPU each", "on two CPUs")]
for where, said, _ in placed:
    if f"cafmcp_stdio_{where}" in runs:
        rows.append((f"stdio, the server {said} (notif/s; floor (d) placed the same)", get(f"cafmcp_stdio_{where}"),
                     get(f"ts_stdio_{where}"), get(f"floor_stdio_{where}"), ">= 3x TS, >= 0.5x floor(d)"))
rows.append(("tools/call, 16 clients, quick tool (req/s)", get("cafmcp_requests"), get("ts_requests"), get("floor_requests"),
             ">= 10x TS, >= 0.75x floor(c)"))
rows.append(("  p99 request latency (us)", get("cafmcp_requests", "p99_us"), get("ts_requests", "p99_us"),
             get("floor_requests", "p99_us"), ""))
rows.append(("  the same tool on a handler thread (req/s)", get("cafmcp_requests_threaded"), get("ts_requests"), None, ""))
rows.append(("  the same, each request with a JWT verified (req/s)", get("cafmcp_requests_jwt"), get("ts_requests"), None, ""))
if "cafmcp_fanout_10k" in runs:
    big = get("floor_sse_10k")
    rows.append((f"HTTP fan-out, 10,000 sessions, one update at a time (notif/s; floor at {get('floor_sse_10k', 'sockets')} sockets)",
                 get("cafmcp_fanout_10k"), get("ts_fanout_10k"), big, ">= 0.8x floor(b) at 10,000"))
    rows.append(("  p99 latency at 10,000 sessions (us)", get("cafmcp_fanout_10k", "p99_us"), get("ts_fanout_10k", "p99_us"), None, ""))
    if "floor_fanout_10k" in runs:
        rows.append(("  the same against floor (e) at 10,000 streams (notif/s)", get("cafmcp_fanout_10k"), None,
                     get("floor_fanout_10k"), ""))
        rows.append(("    server CPU per delivery at 10,000 (us; floor (e)'s in the floor column)",
                     get("cafmcp_fanout_10k", "server_cpu_us_per_item"), None,
                     get("floor_fanout_10k", "server_cpu_us_per_item"), ""))
    rows.append(("HTTP storm, 10,000 sessions, 16 drivers x window 32 (notif/s)", get("cafmcp_storm_10k"),
                 get("ts_storm_10k"), big, ">= 2x floor(b) at 10,000"))
rows.append((f"In-process fan-out, notifier -> {get('floor_caf', 'actors')} sessions (deliv/s)", get("cafmcp_notifier"), None, caf,
             ">= 0.5x floor(a)"))
rows.append((f"KiB per idle HTTP session with GET stream ({get('cafmcp_idle', 'sessions')} cafmcp / {get('ts_idle', 'sessions')} TS)",
             get("cafmcp_idle", "server_kib_per_idle_session"), get("ts_idle", "server_kib_per_idle_session"), None, "<= 16 KiB"))
rows.append(("KiB per idle in-process session", get("cafmcp_inprocess_idle", "kib_per_session"), None, None, "<= 4 KiB"))


def cost(label, traced=None):
    """The median over rounds of 1 - traced/untraced, each traced run against the untraced run of
    its own round: runs in one round share the machine's state, while the best traced and the best
    untraced round may not (a lucky untraced round against an unlucky traced one, or the reverse)."""
    pairs = zip(all_runs.get(label, []), all_runs.get(traced or label + "_traced", []))
    costs = [100.0 * (1 - t["rate_per_s"] / u["rate_per_s"]) for u, t in pairs
             if u.get("rate_per_s") and t.get("rate_per_s")]
    return statistics.median(costs) if costs else None


rows.append(("JWT bearer auth on every tools/call (ES256, JWKS): cost (%, median of rounds)",
             cost("cafmcp_requests", "cafmcp_requests_jwt"), None, None, "<= 20% (>= 0.8x auth off)"))
rows.append(("Tracing always_on, OTLP/JSON to /dev/null: HTTP fan-out one at a time, cost (%, median of rounds)",
             cost("cafmcp_fanout"), None, None, "<= 15%"))
rows.append(("  the same, HTTP storm (both cores saturated), cost (%, median of rounds)", cost("cafmcp_storm"), None, None,
             "<= 15%"))
rows.append(("  HTTP storm, spans piped to a reader on the same 2 cores, cost (%, median of rounds)",
             cost("cafmcp_storm", "cafmcp_storm_traced_piped"), None, None, ""))
rows.append(("  in-process notifier -> socket pairs, OTLP/protobuf encoded, cost (%)", get("tracing_cost", "percent"), None, None, ""))

print()
print(f"floor (b): one {get('floor_sse', 'frame_bytes')}-byte SSE frame per write(2): {fmt(sse)}/s to {get('floor_sse', 'sockets')} sockets, "
      f"{fmt(get('floor_sse_10x'))}/s to {get('floor_sse_10x', 'sockets')}")
if paced in runs:
    ts_p99 = get("ts_fanout", "p99_us")
    versus_ts = f", {get(paced, 'p99_us') / ts_p99:.3f}x the TS SDK's p99" if ts_p99 else ""
    print(f"floor (b) one round at a time (the writer waits for every frame of a round to be read): {fmt(get(paced))}/s "
          f"to {get(paced, 'sockets')} sockets, latency p50 {fmt(get(paced, 'p50_us'))} us, "
          f"p99 {fmt(get(paced, 'p99_us'))} us{versus_ts}")
if "floor_sse_10k_one_at_a_time" in runs:
    paced_10k = "floor_sse_10k_one_at_a_time"
    print(f"floor (b) at {get(paced_10k, 'sockets')} sockets: {fmt(get('floor_sse_10k'))}/s streaming, "
          f"{fmt(get(paced_10k))}/s one round at a time ({ratio(get(paced_10k), get('floor_sse_10k'))} of streaming), "
          f"p99 {fmt(get(paced_10k, 'p99_us'))} us")
print(f"floor (a): one shared payload to {get('floor_caf', 'actors')} CAF actors: {fmt(caf)}/s")
print(f"floor (c): a bare one-thread Asio HTTP/1.1 server answering each POST with a fixed JSON-RPC body: "
      f"{fmt(get('floor_requests'))} req/s, p99 {fmt(get('floor_requests', 'p99_us'))} us")
print(f"floor (e): a bare one-thread Asio HTTP server: update_resource writes one prebuilt event to every GET stream "
      f"(one write(2) each), driven by cafmcp-load like the servers: {fmt(get('floor_fanout'))} notif/s one update at a time "
      f"to {get('floor_fanout', 'sessions')} streams ({ratio(get('floor_fanout'), sse)} floor (b)), p99 {fmt(get('floor_fanout', 'p99_us'))} us")
print(f"floor (d): a process answering each stdin line on stdout (no parse, one write per read): "
      f"{fmt(get('floor_stdio'))} notif/s one update at a time, p99 {fmt(get('floor_stdio', 'p99_us'))} us")
if "floor_stdio_spin" in runs:
    long = (f"; over {fmt(get('floor_stdio_long', 'mutations'))} updates {fmt(get('floor_stdio_long'))} notif/s, "
            f"(d') {fmt(get('floor_stdio_spin_long'))}") if "floor_stdio_long" in runs else ""
    print(f"floor (d'): the same, polling stdin for up to 50 us before each read (as cafmcp's reader): "
          f"{fmt(get('floor_stdio_spin'))} notif/s, p99 {fmt(get('floor_stdio_spin', 'p99_us'))} us{long}")
print()
print("| metric | cafmcp | TS SDK 1.32.2 | floor | cafmcp/TS | cafmcp/floor | target |")
print("|---|---:|---:|---:|---:|---:|---|")
for name, c, t, f, target in rows:
    lower_is_better = "latency" in name or "KiB" in name or "cost" in name or "CPU per" in name
    ct = ratio(c, t) if not lower_is_better else (f"{c / t:.3f}x" if c and t else "n/a")
    print(f"| {name} | {fmt(c)} | {fmt(t)} | {fmt(f)} | {ct} | {ratio(c, f)} | {target} |")

# Each round's figure against another label's in the same round (runs of
# one round share the machine's state; a shared machine's noise moves whole
# stretches of a run).
def per_round(label, other, key, combine):
    return [combine(c[key], o[key]) for o, c in zip(all_runs.get(other, []), all_runs.get(label, []))
            if c.get(key) is not None and o.get(key)]


# The table reads each figure's best round, which can set a server's slow
# round beside a floor's fast one: what each round said on its own shows
# how far the machine moved them.
round_ratios = [("fan-out / floor (b)", "cafmcp_fanout", "floor_sse", "rate_per_s"),
                ("/ floor (e)", "cafmcp_fanout", "floor_fanout", "rate_per_s"),
                ("p99 / the paced floor's", "cafmcp_fanout", paced, "p99_us"),
                ("10,000 sessions / floor (b)", "cafmcp_fanout_10k", "floor_sse_10k", "rate_per_s")]
round_ratios += [(f"stdio {short} / floor (d)", f"cafmcp_stdio_{where}", f"floor_stdio_{where}", "rate_per_s")
                 for where, _, short in placed]
said = [(name, per_round(label, other, key, lambda c, o: c / o)) for name, label, other, key in round_ratios]
if len(all_runs.get("cafmcp_fanout", [])) > 1:
    print()
    print("round by round (cafmcp against the floors of its own round): " +
          "; ".join(f"{name} " + ", ".join(f"{v:.2f}x" for v in values) for name, values in said if values))


# The cluster: one node on a Redis change log against the same node alone,
# and three nodes behind haproxy against one node alone, each paired by
# round (as the tracing costs) and the median over rounds taken.
def paired(label, alone, key, combine):
    values = per_round(label, alone, key, combine)
    return statistics.median(values) if values else None


cluster_rows = [("cafmcp_fanout_clustered", "cafmcp_fanout", "one node with --cluster, fan-out one at a time",
                 ">= 0.7x; p50 added <= 1000 us"),
                ("cafmcp_fanout_haproxy", "cafmcp_fanout", "one node, no cluster, behind haproxy (its relay's cost)", ""),
                ("cafmcp_fanout_3_nodes", "cafmcp_fanout", "three nodes behind haproxy, fan-out one at a time", ""),
                ("cafmcp_storm_3_nodes", "cafmcp_storm", "three nodes behind haproxy, storm (16 x 32)", "")]
if any(label in runs for label, _, _, _ in cluster_rows):
    print()
    print("| cluster (Redis change log) | notif/s | p50 us | p99 us | rate vs one node alone (median of rounds) "
          "| p50 added (us, median of rounds) | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, alone, name, target in cluster_rows:
        rate = paired(label, alone, "rate_per_s", lambda c, a: c / a)
        added = paired(label, alone, "p50_us", lambda c, a: c - a)
        print(f"| {name} | {fmt(get(label))} | {fmt(get(label, 'p50_us'))} | {fmt(get(label, 'p99_us'))} | "
              f"{f'{rate:.2f}x' if rate is not None else 'n/a'} | {fmt(added)} | {target} |")

print()
print("correctness (0 lost / duplicated / out of order):",
      ", ".join(f"{l}: {correctness(l)}" for l in ["cafmcp_fanout", "ts_fanout", "floor_fanout", "cafmcp_storm", "ts_storm", "cafmcp_stdio", "ts_stdio",
                                                    "floor_stdio_spin", "cafmcp_stdio_long", "ts_stdio_long",
                                                    "floor_stdio_long", "floor_stdio_spin_long",
                                                    "floor_stdio", *(f"{who}_stdio_{where}" for where, _, _ in placed
                                                                     for who in ("cafmcp", "ts", "floor")),
                                                    "cafmcp_fanout_10k", "floor_fanout_10k", "cafmcp_storm_10k",
                                                    "ts_fanout_10k", "ts_storm_10k",
                                                    "cafmcp_fanout_traced", "cafmcp_storm_traced",
                                                    "cafmcp_storm_traced_piped", "cafmcp_fanout_clustered",
                                                    "cafmcp_fanout_haproxy", "cafmcp_fanout_3_nodes", "cafmcp_storm_3_nodes"]))
cpu = [(l, runs[l].get("client_cpu_share")) for l in ["cafmcp_fanout", "cafmcp_storm", "cafmcp_requests", "cafmcp_requests_threaded"]
       if l in runs]
print("load client CPU (share of one core):", ", ".join(f"{l} {v:.0%}" for l, v in cpu if v is not None))
