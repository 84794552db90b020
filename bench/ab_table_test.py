"""ab_table.py against made-up pairs whose ratios are known: medians of
per-pair ratios (not ratios of medians), the count of pairs new was ahead
in, tracing's share per pair, and a loss or a failed run named and failing
the table."""
import json
import pathlib
import subprocess
import sys
import tempfile

here = pathlib.Path(__file__).parent


def line(row, variant, pair, rate, **more):
    return json.dumps(dict(row=row, variant=variant, pair=pair, rate_per_s=rate, **more))


def table(lines):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, str(here / "ab_table.py"), f.name], capture_output=True, text=True)
    pathlib.Path(f.name).unlink()
    return done.returncode, done.stdout


def row_of(out, name):
    for text in out.splitlines():
        cells = [c.strip() for c in text.split("|")[1:-1]]
        if cells and cells[0] == name:
            return cells
    return None


failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


clean = []
# requests: new/old 1.1, 1.2, 0.9 (the old server at 70 each time: a ratio
# of medians would say 77/70 = 1.1 too, so the floors move instead).
for pair, (floor, old, new, old_cpu, new_cpu) in enumerate(
        [(100, 70, 77, 10, 9), (200, 140, 168, 10, 9), (50, 35, 31.5, 10, 11)], start=1):
    clean += [line("requests", "floor", pair, floor), line("requests", "old", pair, old, server_cpu_us_per_item=old_cpu, server_cpu_s=3),
              line("requests", "new", pair, new, server_cpu_us_per_item=new_cpu, server_cpu_s=3)]
# fanout: p99 new/old 0.9, 0.5; against the paced floor's p99 1000.
for pair, (old_p99, new_p99) in enumerate([(2000, 1800), (3000, 1500)], start=1):
    clean += [line("fanout", "floor", pair, 1000), line("fanout", "paced", pair, 900, p99_us=1000),
              line("fanout", "bare", pair, 400 * pair, server_cpu_us_per_item=4, server_cpu_s=1),
              line("fanout", "old", pair, 800, p99_us=old_p99, server_cpu_us_per_item=6, server_cpu_s=1, lost=0, duplicated=0, out_of_order=0),
              line("fanout", "new", pair, 850, p99_us=new_p99, server_cpu_us_per_item=5, server_cpu_s=1, lost=0, duplicated=0, out_of_order=0)]
# tracing: old's share 10, 20, 30, 40 %; new's 5 % each time.
for pair, old_share in enumerate([10, 20, 30, 40], start=1):
    clean += [line("tracing", "old_plain", pair, 1000), line("tracing", "old_traced", pair, 1000 * (1 - old_share / 100)),
              line("tracing", "new_plain", pair, 1000), line("tracing", "new_traced", pair, 950)]

code, out = table(clean)
expect(code == 0, f"a clean run exits 0, got {code}")
req = row_of(out, "requests")
expect(req == ["requests", "3", "1.10x (0.90x-1.20x)", "2/3", "0.90x (0.90x-1.10x)", "0.70x (0.70x-0.70x)", "0.77x (0.63x-0.84x)"],
       f"requests row: {req}")
fan = row_of(out, "fanout")
expect(fan is not None and fan[2] == "1.06x (1.06x-1.06x)" and fan[3] == "2/2" and fan[4] == "0.83x (0.83x-0.83x)" and fan[5] == "0.80x (0.80x-0.80x)",
       f"fanout row: {fan}")
bare = row_of(out, "fanout against floor (e)")
expect(bare == ["fanout against floor (e)", "2", "", "", "old 1.50x (1.50x-1.50x), new 1.25x (1.25x-1.25x)", "1.50x (1.00x-2.00x)", "1.59x (1.06x-2.12x)"],
       f"floor (e) row: {bare}")
p99 = row_of(out, "fanout p99 (lower is better)")
expect(p99 is not None and p99[2] == "0.70x (0.50x-0.90x)" and p99[3] == "2/2"
       and p99[5] == "2.50x (2.00x-3.00x)" and p99[6] == "1.65x (1.50x-1.80x)", f"p99 row: {p99}")
expect(row_of(out, "stdio") is None, "no stdio row when none was run")
expect("old 25.0% (quartiles 12.5-37.5%), new 5.0% (quartiles 5.0-5.0%)" in out, f"tracing's share: {out}")
expect("traced rate new/old 1.27x (1.06x-1.58x), new ahead 4/4" in out, f"traced rate: {out}")
expect("lost, duplicated or out of order: none" in out, "a clean run lost nothing")

# stdio's short runs: CPU in a few 10 ms ticks is left out of the CPU column.
code, out = table(clean + [line("stdio", "floor", 1, 100), line("stdio", "old", 1, 50, server_cpu_us_per_item=10, server_cpu_s=0.02),
                           line("stdio", "new", 1, 60, server_cpu_us_per_item=15, server_cpu_s=0.03)])
expect(row_of(out, "stdio") == ["stdio", "1", "1.20x", "1/1", "-", "0.50x", "0.60x"], f"stdio row: {row_of(out, 'stdio')}")

code, out = table(clean + [line("stdio", "old", 1, 10, lost=1, duplicated=0, out_of_order=2),
                           json.dumps(dict(row="stdio", variant="new", pair=1, error="exited 1"))])
expect(code == 1, f"a loss or a failure fails the table, got {code}")
expect("stdio old (pair 1): 1 lost, 0 duplicated, 2 out of order" in out, f"the loss named: {out}")
expect("failed: stdio new (pair 1): exited 1" in out, f"the failure named: {out}")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)
