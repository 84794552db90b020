"""table.py against a recorded compare.sh run (testdata/compare_results.jsonl:
(its floor (c) and (d) lines recorded later, from the floors' first run),
one round of a real run, plus a second round with a traced storm whose server
dropped spans and a TS fan-out that lost a notification, and two more rounds
of the fan-out pair, made up so that the best untraced round (lucky) and the
paired median tell different costs), two rounds of floor (b) one round at
a time, the faster of which gives the latency rows' floor column, and three
rounds of one clustered node, made up to pair with the fan-out rounds, and
made-up stdio lines for floor (d') and the runs over 20,000 updates, a
made-up floor (e) line, and made-up lines for 10,000 sessions: floor (b)
at 9,968 sockets, cafmcp and floor (e); stdio with its placement held, two
rounds on one CPU, one on two). The round-by-round line pairs
what the rounds have in common."""
import json
import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).parent
data = here / "testdata" / "compare_results.jsonl"
runs = {}
rounds = {}
for line in data.read_text().splitlines():
    r = json.loads(line)
    rounds.setdefault(r["label"], []).append(r)
    best = runs.get(r["label"])
    if best is None or r["rate_per_s"] > best["rate_per_s"]:
        runs[r["label"]] = r

out = subprocess.run([sys.executable, str(here / "table.py"), str(data)], check=True, capture_output=True,
                     text=True).stdout
rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in out.splitlines() if line.startswith("| ") and not line.startswith("| metric")}
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


# Ratios come from the best round of each label.
quick = rows["tools/call, 16 clients, quick tool (req/s)"]
ratio = runs["cafmcp_requests"]["rate_per_s"] / runs["ts_requests"]["rate_per_s"]
expect(quick[3] == f"{ratio:.2f}x", f"tools/call ratio {quick[3]} != {ratio:.2f}x")
# tools/call and stdio are read against floors (c) and (d), measured in the same run.
expect(quick[2] == f"{runs['floor_requests']['rate_per_s']:,.0f}", f"tools/call floor column {quick[2]}")
expect(quick[4] == f"{runs['cafmcp_requests']['rate_per_s'] / runs['floor_requests']['rate_per_s']:.2f}x",
       f"tools/call against floor (c) {quick[4]}")
stdio = rows["stdio, 1 session, one update at a time (notif/s)"]
expect(stdio[4] == f"{runs['cafmcp_stdio']['rate_per_s'] / runs['floor_stdio']['rate_per_s']:.2f}x",
       f"stdio against floor (d) {stdio[4]}")
# Against floor (d'), and over ten times the updates against both floors
# (the test data's long and polling stdio lines are made up).
spin = rows["the same against floor (d'), the echo polling before each read (notif/s)"]
expect(spin[2] == "30,500" and spin[4] == f"{runs['cafmcp_stdio']['rate_per_s'] / 30500:.2f}x",
       f"stdio against floor (d') {spin}")
long_stdio = rows["stdio over 20,000 updates, one at a time (notif/s; floor (d))"]
expect(long_stdio[:5] == ["30,000", "7,000", "20,000", "4.29x", "1.50x"],
       f"stdio over 20,000 updates {long_stdio}")
long_spin = rows["the same against floor (d'), polling"]
expect(long_spin[2] == "32,000" and long_spin[4] == "0.94x", f"stdio over 20,000 updates against (d') {long_spin}")
expect("cafmcp_stdio_long: ok" in out, "the long stdio run's correctness is not reported")
# cafmcp's p99 beside floor (e)'s (made-up floor (e) line: p99 4,000 us).
against_e = rows["p99 latency against floor (e)'s (us)"]
expect(against_e[2] == "4,000" and against_e[4] == f"{runs['cafmcp_fanout']['p99_us'] / 4000:.2f}x",
       f"p99 against floor (e) {against_e}")
expect(any(line.startswith("floor (c):") for line in out.splitlines()), "floor (c) is not described")
fanout = rows["HTTP fan-out, 500 sessions, one update at a time (notif/s)"]
floor = runs["cafmcp_fanout"]["rate_per_s"] / runs["floor_sse"]["rate_per_s"]
expect(fanout[4] == f"{floor:.2f}x", f"fan-out/floor {fanout[4]} != {floor:.2f}x")
# Latency rows are read against floor (b) one round at a time (its best round's p99).
paced = runs["floor_sse_one_at_a_time"]
expect(paced["p99_us"] == 3320, "the test data's best paced floor round is not the one expected")
p99 = rows["p99 mutation->delivery latency (us)"]
expect(p99[2] == f"{paced['p99_us']:,.0f}", f"p99 floor column {p99[2]} != {paced['p99_us']}")
expect(p99[4] == f"{runs['cafmcp_fanout']['p99_us'] / paced['p99_us']:.2f}x", f"p99 against the floor {p99[4]}")
floor_line = next(line for line in out.splitlines() if line.startswith("floor (b) one round at a time"))
expect(f"{paced['p99_us'] / runs['ts_fanout']['p99_us']:.3f}x the TS SDK's p99" in floor_line,
       f"the paced floor against TS is not printed: {floor_line}")
# Tracing cost = the median over rounds of 1 - traced/untraced, paired by round.
paired = sorted(100 * (1 - t["rate_per_s"] / u["rate_per_s"])
                for u, t in zip(rounds["cafmcp_fanout"], rounds["cafmcp_fanout_traced"]))
expect(len(paired) == 3, f"{len(paired)} fan-out pairs in the test data, not 3")
cost = paired[1]
best_vs_best = 100 * (1 - runs["cafmcp_fanout_traced"]["rate_per_s"] / runs["cafmcp_fanout"]["rate_per_s"])
expect(abs(cost - best_vs_best) > 1, "the test data cannot tell the paired median from best against best")
traced = rows["Tracing always_on, OTLP/JSON to /dev/null: HTTP fan-out one at a time, cost (%, median of rounds)"]
expect(traced[0] == f"{cost:.2f}", f"tracing cost {traced[0]} != {cost:.2f}")
# A round that went wrong fails its label, although a better round hides it in the figures.
correctness = next(line for line in out.splitlines() if line.startswith("correctness"))
expect("ts_fanout: FAIL lost=1" in correctness, "a lost notification is not reported")
expect("cafmcp_storm_traced: FAIL server dropped spans" in correctness, "dropped spans are not reported")
expect("cafmcp_fanout: ok" in correctness, "a clean run is not ok")

# Round by round: each round's cafmcp against the floors of its own round,
# as many as both ran (the test data: two rounds of the paced floor).
by_round = next(line for line in out.splitlines() if line.startswith("round by round"))
p99_rounds = ", ".join(f"{c['p99_us'] / p['p99_us']:.2f}x"
                       for c, p in zip(rounds["cafmcp_fanout"], rounds["floor_sse_one_at_a_time"]))
expect(len(rounds["floor_sse_one_at_a_time"]) == 2 and f"p99 / the paced floor's {p99_rounds};" in by_round,
       f"the p99 round by round is not {p99_rounds}: {by_round}")
first = rounds["cafmcp_fanout"][0]["rate_per_s"] / rounds["floor_sse"][0]["rate_per_s"]
expect(f"fan-out / floor (b) {first:.2f}x;" in by_round, f"the fan-out round by round: {by_round}")

# stdio with its placement held (made-up lines): each placement against the
# floor placed the same way, the table's from the best rounds (one CPU:
# 50,000 / 90,000), round by round from each round's own (0.56x, 0.75x).
one_cpu = rows["stdio, the server on its client's CPU (notif/s; floor (d) placed the same)"]
expect(one_cpu[:5] == ["50,000", "12,000", "90,000", "4.17x", "0.56x"], f"stdio on one CPU {one_cpu}")
two_cpus = rows["stdio, the server and its client on a CPU each (notif/s; floor (d) placed the same)"]
expect(two_cpus[:5] == ["44,000", "9,000", "22,000", "4.89x", "2.00x"], f"stdio on two CPUs {two_cpus}")
expect("stdio on one CPU / floor (d) 0.56x, 0.75x" in by_round and "stdio on two CPUs / floor (d) 2.00x" in by_round,
       f"stdio's placed rows round by round: {by_round}")
expect("ts_stdio_two_cpus: FAIL lost=1" in correctness and "cafmcp_stdio_one_cpu: ok" in correctness,
       "the placed stdio runs' correctness is not reported")

# 10,000 sessions (made-up lines): against floor (b) at the sockets it held,
# and against floor (e) at 10,000 streams, rate and server CPU.
big = rows["HTTP fan-out, 10,000 sessions, one update at a time (notif/s; floor at 9968 sockets)"]
expect(big[2] == "170,000" and big[4] == "0.90x", f"10,000 sessions against floor (b) {big}")
big_e = rows["the same against floor (e) at 10,000 streams (notif/s)"]
expect(big_e[0] == "153,000" and big_e[2] == "180,000" and big_e[4] == "0.85x",
       f"10,000 sessions against floor (e) {big_e}")
big_cpu = rows["server CPU per delivery at 10,000 (us; floor (e)'s in the floor column)"]
expect(big_cpu[0] == "5.80" and big_cpu[2] == "5.50" and big_cpu[4] == "1.05x",
       f"server CPU per delivery at 10,000 {big_cpu}")
expect("floor_fanout_10k: ok" in correctness, "floor (e)'s run at 10,000 is not checked")

# The cluster rows pair each round with the single node's run of that round
# (the test data's clustered rounds: 0.90x, 0.70x, 0.95x; p50 +200, +900, +100 us).
clustered = rows["one node with --cluster, fan-out one at a time"]
expect(clustered[3] == "0.90x", f"clustered rate, median of rounds: {clustered[3]} != 0.90x")
expect(clustered[4] == "200", f"clustered p50 added, median of rounds: {clustered[4]} != 200")
expect("cafmcp_fanout_clustered: ok" in correctness, "the clustered run's correctness is not reported")

if failures:
    print(out)
    print("\n".join("FAILED: " + f for f in failures))
    sys.exit(1)
print("table.py: ratios, costs and failures as expected")
