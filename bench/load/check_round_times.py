#!/usr/bin/env python3
"""Checks a `cafmcp-load --round-times` file: one line per mutation sent,
"driver mutation first_us last_us answer_us", every mutation delivered
(first and last not -1), its first delivery no later than its last, and each
driver's mutations numbered 0, 1, 2, ... in order.

  check_round_times.py FILE MUTATIONS"""
import sys


def check(path, mutations):
    rows = [line.split() for line in open(path) if line.strip()]
    if len(rows) != mutations:
        return f"{len(rows)} lines, expected {mutations}"
    next_of = {}
    for r in rows:
        if len(r) != 5:
            return f"not five fields: {r}"
        w, n, first, last, answer = map(int, r)
        if n != next_of.get(w, 0):
            return f"driver {w}: mutation {n} out of turn"
        next_of[w] = n + 1
        if first < 0 or last < 0 or answer < 0:
            return f"driver {w} mutation {n}: a time missing ({first} {last} {answer})"
        if first > last:
            return f"driver {w} mutation {n}: first delivery after the last ({first} > {last})"
    return None


if __name__ == "__main__":
    why = check(sys.argv[1], int(sys.argv[2]))
    if why:
        print(f"check_round_times: {sys.argv[1]}: {why}", file=sys.stderr)
        sys.exit(1)
