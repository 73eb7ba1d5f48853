#!/usr/bin/env python3
"""Per-function data-cache counts from a cachegrind.out file, as JSON:
{"function": {"Dr": n, "D1mr": n, "DLmr": n, "Dw": n, "D1mw": n, "DLmw": n}, ...}"""
import json
import sys

def main(path):
    events, totals, fn = [], {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                fn = line[3:]
                totals.setdefault(fn, [0] * len(events))
            elif line and line[0].isdigit() and fn is not None:
                numbers = [int(x) for x in line.split()[1:]]
                row = totals[fn]
                for i, v in enumerate(numbers):
                    row[i] += v
    wanted = ["Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"]
    out = {fn: {k: row[events.index(k)] for k in wanted if k in events} for fn, row in totals.items()}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)

if __name__ == "__main__":
    main(sys.argv[1])
