#!/usr/bin/env python3
"""Compares Cachegrind's counts with cats-static's prediction for plain builds (issue 8).

  fidelity_plain.py job CG_OUT BASE_CG CATS_JSON SOURCE PROGRAM COMPILER MACRO SIZE DECISION OUT_JSON [OPTIONS]
      one row: reads cachegrind.out (and that of the trivial program built by the same compiler)
      and the simulation JSON, writes the row as JSON, prints it; OPTIONS are the program's
      `fidelity-options:` (what a user who knows the data passed to simulate), kept in the row
  fidelity_plain.py summary ROWS_DIR OUT_JSON COMMAND BINARY MODEL_FLAGS
      the table of every row, the median and worst deviation per compiler, the JSON summary
  fidelity_plain.py markdown SUMMARY_JSON
      the summary as the Markdown table of docs/fidelity.md

How functions are matched (docs/fidelity.md, "Plain builds"):
- Cachegrind names functions as the binary has them: inlined code is counted in its caller and
  GCC's clones are `name.constprop.0`, `name.isra.0`, `name.part.0`, `name.cold`. The program's
  own functions are those with lines in the program's source file; a clone suffix (from the
  first '.') is stripped and clones are summed into the name.
- libc's memset/memcpy/memmove (any `__memset_avx2_unaligned_erms`-like variant) are where the
  work of loops the compiler replaced by these calls is counted: they are compared as the
  functions `memset`, `memcpy`, `memmove` and added to Cachegrind's total. Start-up (the dynamic
  loader's own memset and memcpy) and printf use them too: their counts in a trivial program
  (`printf("%f\n", 1.0)` built by the same compiler) are subtracted, so what is left is the
  program's. Under Valgrind, glibc's `rep stosb`/`rep movsb` paths count one access per byte, so
  the accesses (not the misses) of large memset/memcpy calls are far above one per vector.
- Cachegrind's total = own functions + those libc functions (not libc start-up, printf, malloc).
- The prediction's functions come from `by_compiled_function` when the simulation JSON has it
  (the functions as the compiled binary has them), else `by_function` (as written in the source);
  a `name@file` key is matched as `name`. The predicted total is the simulation's `totals`.
- Deviation = (predicted - Cachegrind) / Cachegrind, signed, in %; with Cachegrind at 0 it is
  taken against 1. Medians and worst cases use cells where either count is >= 1000 (smaller
  counts are decided by a stack slot or a line of libc).
"""
import json
import os
import platform
import re
import statistics
import sys
import time

NOISE_FLOOR = 1000
LIBC_COPIES = re.compile(r"^_*(memset|memcpy|memmove|mempcpy)(_|$)")
LEVELS = ("D1", "LL")
CG_KEYS = {"D1": ("D1mr", "D1mw"), "LL": ("DLmr", "DLmw")}


def read_cachegrind(path, source, base=None):
    """Per-function counts of the program's own functions and libc's copy routines, minus those
    routines' counts in `base` (the trivial program's per-function counts)."""
    events, blocks, fl, fn = [], {}, None, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fl="):
                fl = line[3:]
            elif line.startswith("fn="):
                fn = line[3:]
                blocks.setdefault((fl, fn), [0] * len(events))
            elif line and line[0].isdigit() and fn is not None:
                row = blocks[(fl, fn)]
                for i, v in enumerate(line.split()[1:]):
                    row[i] += int(v)
    own_file = os.path.realpath(source)
    own = {fn for (fl, fn) in blocks if fl and os.path.realpath(fl) == own_file}
    functions = {}
    for (fl, fn), row in blocks.items():
        copy = LIBC_COPIES.match(fn)
        if fn in own:
            name = fn.split(".")[0]
        elif copy:
            name = "memcpy" if copy.group(1) == "mempcpy" else copy.group(1)
        else:
            continue
        counts = dict(zip(events, row))
        entry = functions.setdefault(name, empty_counts())
        for level in LEVELS:
            rm, wm = CG_KEYS[level]
            entry[level]["read_misses"] += counts.get(rm, 0)
            entry[level]["write_misses"] += counts.get(wm, 0)
        entry["D1"]["reads"] += counts.get("Dr", 0)
        entry["D1"]["writes"] += counts.get("Dw", 0)
    for name, entry in (base or {}).items():
        if name in functions and LIBC_COPIES.match(name):
            for level in LEVELS:
                for key, v in entry[level].items():
                    functions[name][level][key] = max(0, functions[name][level][key] - v)
    return functions, sum_counts(functions.values())


def empty_counts():
    return {level: {"reads": 0, "writes": 0, "read_misses": 0, "write_misses": 0} for level in LEVELS}


def sum_counts(entries):
    total = empty_counts()
    for entry in entries:
        for level in LEVELS:
            for key in total[level]:
                total[level][key] += entry[level][key]
    return total


def pick(entry):
    """The four counts of each level from a simulation JSON entry."""
    out = empty_counts()
    for level in LEVELS:
        for key in out[level]:
            out[level][key] = entry.get(level, {}).get(key, 0)
    return out


def read_prediction(path):
    with open(path) as f:
        sim = json.load(f)
    if "error" in sim:
        raise ValueError(sim["error"])
    section = "by_compiled_function" if "by_compiled_function" in sim else "by_function"
    functions = {}
    for key, entry in sim.get(section, {}).items():
        name = key.split("@")[0]
        functions[name] = sum_counts([functions.get(name, empty_counts()), pick(entry)])
    return functions, pick(sim["totals"]), section, bool(sim.get("approximate", False))


def deviation(cg, pred):
    return (pred - cg) / max(cg, 1) * 100.0


def compare(cg, pred):
    """Deviation cells of one count set: misses (reads+writes), read and write misses per level."""
    cells = {"refs": cell(cg["D1"]["reads"] + cg["D1"]["writes"], pred["D1"]["reads"] + pred["D1"]["writes"])}
    for level in LEVELS:
        c, p = cg[level], pred[level]
        cells[level + "_misses"] = cell(c["read_misses"] + c["write_misses"], p["read_misses"] + p["write_misses"])
        cells[level + "_read_misses"] = cell(c["read_misses"], p["read_misses"])
        cells[level + "_write_misses"] = cell(c["write_misses"], p["write_misses"])
    return cells


def cell(cg, pred):
    return {"cachegrind": cg, "predicted": pred, "deviation": round(deviation(cg, pred), 3)}


def counted(c):
    return max(c["cachegrind"], c["predicted"]) >= NOISE_FLOOR


MISS_CELLS = ("D1_misses", "LL_misses")


def job(args):
    cg_out, base_cg, cats_json, source, program, compiler, macro, size, decision, out = args[:10]
    row = {"program": program, "compiler": compiler, "macro": macro, "size": int(size), "decision": decision}
    if len(args) > 10 and args[10]:
        row["options"] = args[10]
    try:
        base, _ = read_cachegrind(base_cg, "/nonexistent")
        cg_functions, cg_total = read_cachegrind(cg_out, source, base)
        pred_functions, pred_total, section, approximate = read_prediction(cats_json)
    except (OSError, ValueError, KeyError) as e:
        row["status"] = "error: %s" % str(e).replace("\n", " ")
    else:
        row["status"] = "ok"
        row["predicted_section"] = section
        row["approximate"] = approximate
        row["total"] = compare(cg_total, pred_total)
        names = sorted(set(cg_functions) | set(pred_functions))
        row["functions"] = {n: compare(cg_functions.get(n, empty_counts()), pred_functions.get(n, empty_counts())) for n in names}
    with open(out, "w") as f:
        json.dump(row, f, indent=1, sort_keys=True)
    print(format_row(row), flush=True)


def fmt_cell(c):
    return "%11d %11d %+8.1f%%" % (c["cachegrind"], c["predicted"], c["deviation"])


def fmt_dev(c):
    return "%+8.1f%%" % c["deviation"] if counted(c) else "%9s" % "(small)"


def worst_function(row):
    worst = None
    for name, cells in row["functions"].items():
        for key in MISS_CELLS:
            c = cells[key]
            if counted(c) and (worst is None or abs(c["deviation"]) > abs(worst[1])):
                worst = (name, c["deviation"], key[:2])
    if not worst:
        return "-"
    c = row["functions"][worst[0]][worst[2] + "_misses"]
    if c["cachegrind"] == 0:
        return "%s %s: not in the binary (inlined), %d predicted" % (worst[0], worst[2], c["predicted"])
    if c["predicted"] == 0:
        return "%s %s: %d in the binary, none predicted" % (worst[0], worst[2], c["cachegrind"])
    return "%s %s %+.1f%%" % (worst[0], worst[2], worst[1])


HEADER = "%-15s %-5s %7s | %-33s | %-33s | %9s %9s %9s %9s | %9s | %s" % (
    "program", "cc", "size", "D1 misses: Cachegrind predicted dev", "LL misses: Cachegrind predicted dev",
    "D1 read", "D1 write", "LL read", "LL write", "refs", "worst function (D1/LL misses)")


def format_row(row):
    head = "%-15s %-5s %7d" % (row["program"], row["compiler"], row["size"])
    if row["status"] != "ok":
        return "%s | %s" % (head, row["status"])
    t = row["total"]
    return "%s | %s | %s | %s %s %s %s | %s | %s%s" % (
        head, fmt_cell(t["D1_misses"]), fmt_cell(t["LL_misses"]), fmt_dev(t["D1_read_misses"]),
        fmt_dev(t["D1_write_misses"]), fmt_dev(t["LL_read_misses"]), fmt_dev(t["LL_write_misses"]),
        fmt_dev(t["refs"]), worst_function(row), " ~" if row.get("approximate") else "")


def stats(devs):
    if not devs:
        return {"cells": 0, "median": None, "worst": None}
    a = [abs(d) for d in devs]
    return {"cells": len(a), "median": round(statistics.median(a), 3), "worst": round(max(a), 3)}


def summarise(rows):
    out = {}
    for compiler in sorted({r["compiler"] for r in rows}):
        mine = [r for r in rows if r["compiler"] == compiler and r["status"] == "ok"]
        total = [r["total"][k]["deviation"] for r in mine for k in MISS_CELLS if counted(r["total"][k])]
        split = [r["total"][k]["deviation"] for r in mine for k in r["total"]
                 if k.endswith(("read_misses", "write_misses")) and counted(r["total"][k])]
        per_fn = [f[k] for r in mine for f in r["functions"].values() for k in MISS_CELLS if counted(f[k])]
        matched = [c["deviation"] for c in per_fn if c["cachegrind"] > 0 and c["predicted"] > 0]
        out[compiler] = {"rows": len(mine), "failed": sum(1 for r in rows if r["compiler"] == compiler and r["status"] != "ok"),
                         "total_misses": stats(total), "total_read_write_misses": stats(split),
                         "per_function_misses": stats([c["deviation"] for c in per_fn]),
                         "per_function_matched_misses": stats(matched),
                         "per_function_only_predicted": sum(1 for c in per_fn if c["cachegrind"] == 0),
                         "per_function_only_in_binary": sum(1 for c in per_fn if c["predicted"] == 0)}
    return out


def summary(args):
    rows_dir, out, command, binary, model_flags = args
    rows = []
    for name in sorted(os.listdir(rows_dir)):
        if name.endswith(".json"):
            with open(os.path.join(rows_dir, name)) as f:
                rows.append(json.load(f))
    rows.sort(key=lambda r: (r["program"], r["compiler"], r["size"]))
    print(HEADER)
    for r in rows:
        print(format_row(r))
    result = summarise(rows)
    print("\ndeviation |predicted - Cachegrind| / Cachegrind over counts >= %d (D1 and LL misses, reads+writes):" % NOISE_FLOOR)
    for compiler, s in result.items():
        t, f, rw, m = s["total_misses"], s["per_function_misses"], s["total_read_write_misses"], s["per_function_matched_misses"]
        print("  %-5s %3d rows (%d failed): total median %s worst %s (%d cells); reads and writes apart: median %s worst %s" % (
            compiler, s["rows"], s["failed"], pct(t["median"]), pct(t["worst"]), t["cells"], pct(rw["median"]), pct(rw["worst"])))
        print("        per function median %s worst %s (%d cells); where both have the function: median %s worst %s "
              "(%d cells); %d cells only predicted (inlined by the compiler), %d only in the binary" % (
                  pct(f["median"]), pct(f["worst"]), f["cells"], pct(m["median"]), pct(m["worst"]), m["cells"],
                  s["per_function_only_predicted"], s["per_function_only_in_binary"]))
    doc = {"format": "cats-static-fidelity-plain", "version": 1, "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
           "machine": "%s %s, %s" % (platform.node(), platform.machine(), platform.platform()),
           "command": command, "binary": binary, "model_flags": model_flags,
           "geometry": {"D1": "32768,8,64", "LL": "262144,8,64"}, "noise_floor": NOISE_FLOOR,
           "summary": result, "rows": rows}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    print("JSON summary: %s" % out)


def markdown(args):
    with open(args[0]) as f:
        doc = json.load(f)
    print("| program | cc | N | D1 misses Cachegrind / predicted | dev | LL misses | dev | accesses dev "
          "| functions in the binary | worst function |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    for r in doc["rows"]:
        if r["status"] != "ok":
            print("| %s | %s | %d | %s | | | | | | |" % (r["program"], r["compiler"], r["size"], r["status"]))
            continue
        t = r["total"]
        kept = [n for n, c in sorted(r["functions"].items())
                if c["refs"]["cachegrind"] >= (NOISE_FLOOR if LIBC_COPIES.match(n) else 1)]
        print("| %s | %s | %d | %s / %s | %s | %s / %s | %s | %s | %s | %s |" % (
            r["program"], r["compiler"], r["size"], "{:,}".format(t["D1_misses"]["cachegrind"]),
            "{:,}".format(t["D1_misses"]["predicted"]), md_dev(t["D1_misses"]), "{:,}".format(t["LL_misses"]["cachegrind"]),
            "{:,}".format(t["LL_misses"]["predicted"]), md_dev(t["LL_misses"]), md_dev(t["refs"]), ", ".join(kept),
            worst_function(r)))


def md_dev(c):
    return "%+.1f %%" % c["deviation"] if counted(c) else "(small)"


def pct(v):
    return "-" if v is None else "%.2f%%" % v


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "job" and len(sys.argv) in (12, 13):
        job(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "summary" and len(sys.argv) == 7:
        summary(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "markdown":
        markdown(sys.argv[2:])
    else:
        sys.exit(__doc__)
