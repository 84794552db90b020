"""The table of bench/ab.sh: per row, old and new compared pair by pair.

Every figure is a median over pairs of a ratio taken within one pair (the
two servers, or a server and its floor, measured minutes apart at most on
a machine in one state), never a ratio of two medians or of two best runs.
"""
import json
import statistics
import sys

FLOORS = {"requests": "floor (c)", "requests_threaded": "floor (c)", "fanout": "floor (b) (and floor (e), a bare HTTP server)",
          "stdio": "floor (d), one CPU"}


def load(path):
    pairs = {}  # row -> pair -> variant -> line
    errors = []
    for text in open(path):
        if not text.strip():
            continue
        r = json.loads(text)
        if "error" in r and r["error"]:
            errors.append(f"{r['row']} {r['variant']} (pair {r['pair']}): {r['error']}")
            continue
        pairs.setdefault(r["row"], {}).setdefault(r["pair"], {})[r["variant"]] = r
    return pairs, errors


# The server's CPU is read from /proc in 10 ms ticks: a run that used less
# than this (stdio's 2,000 updates use ~30 ms) gives a ratio of ticks, not a
# figure, and is left out of the CPU columns.
MIN_CPU_S = 0.2


def ratios(by_pair, num, den, key="rate_per_s"):
    out = []
    for p in by_pair.values():
        x, y = p.get(num, {}), p.get(den, {})
        a, b = x.get(key), y.get(key)
        if key == "server_cpu_us_per_item" and min(x.get("server_cpu_s", 0), y.get("server_cpu_s", 0)) < MIN_CPU_S:
            continue
        if a is not None and b:
            out.append(a / b)
    return out


def med(xs, fmt="{:.2f}x"):
    if not xs:
        return "-"
    if len(xs) == 1:
        return fmt.format(xs[0])
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


def ahead(xs, better_if_lower=False):
    n = sum((x < 1) if better_if_lower else (x > 1) for x in xs)
    return f"{n}/{len(xs)}" if xs else "-"


def share(by_pair, v):
    """Tracing's share of the storm, per pair: 1 - traced/untraced, in %."""
    return [100 * x for x in (1 - r for r in ratios(by_pair, f"{v}_traced", f"{v}_plain"))]


def quartiles(xs):
    if len(xs) < 4:
        return med(xs, "{:.1f}%")
    q = statistics.quantiles(xs, n=4)
    return f"{statistics.median(xs):.1f}% (quartiles {q[0]:.1f}-{q[2]:.1f}%)"


def main(path):
    pairs, errors = load(path)
    print("| row | pairs | rate new/old | new ahead | server CPU an item new/old | old / floor | new / floor |")
    print("|---|---:|---|---:|---|---|---|")
    for row in ("requests", "requests_threaded", "fanout", "stdio"):
        if row not in pairs:
            continue
        p = pairs[row]
        rate = ratios(p, "new", "old")
        cpu = ratios(p, "new", "old", "server_cpu_us_per_item")
        print(f"| {row} | {len(p)} | {med(rate)} | {ahead(rate)} | {med(cpu)} | "
              f"{med(ratios(p, 'old', 'floor'))} | {med(ratios(p, 'new', 'floor'))} |")
        if row == "fanout" and any("bare" in v for v in p.values()):
            # The server's CPU a delivery against the bare server's: what its own work costs.
            print(f"| fanout against floor (e) | {len(p)} | | | "
                  f"old {med(ratios(p, 'old', 'bare', 'server_cpu_us_per_item'))}, "
                  f"new {med(ratios(p, 'new', 'bare', 'server_cpu_us_per_item'))} | "
                  f"{med(ratios(p, 'old', 'bare'))} | {med(ratios(p, 'new', 'bare'))} |")
        if row == "fanout":
            p99 = ratios(p, "new", "old", "p99_us")
            print(f"| fanout p99 (lower is better) | {len(p)} | {med(p99)} | {ahead(p99, True)} | | "
                  f"{med(ratios(p, 'old', 'paced', 'p99_us'))} | {med(ratios(p, 'new', 'paced', 'p99_us'))} |")
    floors = ", ".join(f"{row}: {name}" for row, name in FLOORS.items() if row in pairs)
    if floors:
        p99 = "; fanout p99 against the paced floor's" if "fanout" in pairs else ""
        print(f"\nFloors: {floors}{p99}.")
    for row, what in (("tracing", "a storm to 500 sessions"), ("requests_tracing", "tools/call, 16 clients")):
        if row not in pairs:
            continue
        p = pairs[row]
        traced = ratios(p, "new_traced", "old_traced")
        print(f"\nTracing's share of {what}, {len(p)} pairs: old {quartiles(share(p, 'old'))}, "
              f"new {quartiles(share(p, 'new'))}; traced rate new/old {med(traced)}, new ahead {ahead(traced)}")
    bad = []
    for row, p in pairs.items():
        for n, variants in p.items():
            for v, r in variants.items():
                k = sum(r.get(f, 0) for f in ("lost", "duplicated", "out_of_order"))
                if k:
                    bad.append(f"{row} {v} (pair {n}): {r.get('lost', 0)} lost, {r.get('duplicated', 0)} duplicated, "
                               f"{r.get('out_of_order', 0)} out of order")
    print("\nlost, duplicated or out of order: " + ("; ".join(bad) if bad else "none"))
    if errors:
        print("failed: " + "; ".join(errors))
    return 1 if bad or errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
