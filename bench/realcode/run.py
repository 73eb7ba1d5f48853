#!/usr/bin/env python3
"""Runs cats-static analyze over the real-code corpus (units.tsv) and measures each unit:
status (ok, analysis error, usage error, crash, timeout), wall time, peak memory, JSON size,
accesses, distinct source accesses, and the share of exact (not approximate) and indirect accesses.

With --simulate it runs `simulate` instead: the parameters a run says have no value are bound to
--value (default 64) and the unit is run again (up to four rounds); it reports the status, the
time of the last round, the simulated accesses and how many parameters were bound."""
import argparse, glob, json, os, re, shutil, subprocess, sys, tempfile, time

MISSING = re.compile(r"bind (?:it|them) with((?: -D [A-Za-z_][A-Za-z_0-9]*=VALUE)+)")

HERE = os.path.dirname(os.path.abspath(__file__))


def units(corpus, manifest, only):
    for line in open(manifest):
        if not line.strip() or line.startswith("#"):
            continue
        name, mode, root_glob, globs, flags = (line.rstrip("\n").split("\t") + [""])[:5]
        if only and not any(name.startswith(o) for o in only):
            continue
        for root in sorted(glob.glob(os.path.join(corpus, root_glob))):
            files = []
            for pattern in globs.split():
                if pattern.startswith("!"):
                    drop = set(glob.glob(os.path.join(root, pattern[1:])))
                    files = [f for f in files if f not in drop]
                else:
                    files += sorted(f for f in glob.glob(os.path.join(root, pattern)) if f not in files)
            package = os.path.relpath(root, corpus).split(os.sep)[1]  # debian/<package>/... or npm/<package>/...
            tag = name if len(glob.glob(os.path.join(corpus, root_glob))) == 1 else name + ":" + package
            if mode == "project":
                yield tag + " (project)", root, files, flags.split()
            else:
                for f in files:
                    yield tag + "/" + os.path.relpath(f, root), root, [f], flags.split()


def command_line(binary, command, root, files, flags):
    """cats-static COMMAND on the unit's files (relative to its root), JSON report."""
    return [binary, command, *[os.path.relpath(f, root) for f in files], *flags, "--format", "json"]


def measure(binary, root, files, flags, timeout, command="analyze"):
    out = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    timing = tempfile.NamedTemporaryFile(suffix=".time", delete=False).name
    cmd = ["/usr/bin/time", "-f", "%e %M", "-o", timing, "timeout", "-s", "KILL", str(timeout),
           *command_line(binary, command, root, files, flags), "-o", out]
    started = time.time()
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    wall = time.time() - started
    rss_mb = 0.0
    try:
        fields = open(timing).read().split()
        rss_mb = int(fields[-1]) / 1024.0
    except (OSError, ValueError, IndexError):
        pass
    code = proc.returncode
    stderr = proc.stderr
    if code == 137 or (code == 124) or wall >= timeout:
        status = "timeout"
    elif code >= 128 or code < 0 or "Sanitizer" in stderr or "Segmentation" in stderr:
        status = "crash"
    else:
        status = {0: "ok", 1: "error", 2: "usage"}.get(code, "crash")
    result = {"status": status, "exit": code, "seconds": round(wall, 2), "rss_mb": round(rss_mb, 1),
              "warnings": stderr.count(": warning:"), "errors": stderr.count(": error:"),
              "json_bytes": os.path.getsize(out) if os.path.exists(out) else 0}
    if status in ("ok", "error") and result["json_bytes"]:
        try:
            report = json.load(open(out))
            result.update(summarise(report) if command == "analyze" else
                          {"simulated": report["accesses"], "approximate": bool(report.get("approximate"))})
        except (ValueError, KeyError) as e:
            result["status"], result["note"] = "bad-json", str(e)
    if status not in ("ok",):
        lines = [l for l in stderr.splitlines() if ": error:" in l or "Sanitizer" in l or "usage" in l.lower()]
        result["first_error"] = (lines[0] if lines else stderr.strip().splitlines()[-1] if stderr.strip() else "")[:200]
    missing = MISSING.search(stderr)
    result["missing"] = [item.split("=")[0] for item in missing.group(1).split(" -D ")[1:]] if missing else []
    os.unlink(out)
    os.unlink(timing)
    return result


def simulate(binary, root, files, flags, timeout, value):
    """simulate, binding what each round says is missing (at most four rounds)."""
    bound = []
    for _ in range(4):
        r = measure(binary, root, files, flags + [f"-D{name}={value}" for name in bound], timeout, "simulate")
        missing = [name for name in r.pop("missing") if name not in bound]
        if r["status"] != "error" or not missing:
            break
        bound += missing
    r["bound"] = len(bound)
    return r


def summarise(report):
    accesses = report.get("accesses", [])
    cov = report.get("coverage")
    if cov:  # the report's own count of distinct source accesses (docs/analysis-format.md, Coverage)
        n = cov["accesses"]
        indirect = {(a.get("file"), a.get("line"), a.get("column"), a.get("mode"), a.get("text"))
                    for a in accesses if a.get("class") == "indirect"}
        reasons = {r["reason"]: r["accesses"] for r in cov.get("reasons", [])}
        return {"accesses": len(accesses), "source_accesses": n, "exact_share": round(cov["exact_share"], 3) if n else None,
                "indirect_share": round(min(1.0, len(indirect) / n), 3) if n else None,
                "approximate": bool(report.get("approximate")), "top_reasons": reasons}
    distinct = {}
    for a in accesses:
        key = (a.get("file"), a.get("line"), a.get("column"), a.get("mode"), a.get("text"))
        seen = distinct.setdefault(key, {"approximate": False, "indirect": False})
        seen["approximate"] |= bool(a.get("approximate"))
        seen["indirect"] |= a.get("class") == "indirect"
    n = len(distinct)
    exact = sum(1 for d in distinct.values() if not d["approximate"])
    indirect = sum(1 for d in distinct.values() if d["indirect"])
    return {"accesses": len(accesses), "source_accesses": n, "exact_share": round(exact / n, 3) if n else None,
            "indirect_share": round(indirect / n, 3) if n else None, "approximate": bool(report.get("approximate"))}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--binary", default=os.path.join(HERE, "../../build/driver/cats-static"))
    p.add_argument("--corpus", default=os.environ.get("CATS_CORPUS", "/tmp/cats-corpus"))
    p.add_argument("--manifest", default=os.path.join(HERE, "units.tsv"))
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--json", help="write every unit's figures here")
    p.add_argument("--simulate", action="store_true", help="run simulate, binding the parameters it names, instead of analyze")
    p.add_argument("--value", type=int, default=64, help="with --simulate: the value of every parameter bound")
    p.add_argument("--header-cache-check", action="store_true",
                   help="analyse every unit with the header cache off, cold and warm, and report any difference")
    p.add_argument("only", nargs="*", help="unit name prefixes to run (default: all)")
    args = p.parse_args()
    binary = os.path.abspath(args.binary)
    todo = list(units(args.corpus, args.manifest, args.only))
    if not todo:
        sys.exit("realcode: no unit found; run bench/realcode/fetch.sh first")
    if args.header_cache_check:
        sys.exit(header_cache_check(binary, todo, args.timeout))
    results = []
    tty = sys.stderr.isatty()
    for i, (name, root, files, flags) in enumerate(todo, 1):
        if tty:
            print(f"\r[{i}/{len(todo)}] {name[:60]:<60}", end="", file=sys.stderr, flush=True)
        if args.simulate:
            r = simulate(binary, root, files, flags, args.timeout, args.value)
        else:
            r = measure(binary, root, files, flags, args.timeout)
            r.pop("missing")
        r["unit"], r["files"] = name, len(files)
        results.append(r)
    if tty:
        print(file=sys.stderr)
    (report_simulations if args.simulate else report)(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"format": "cats-static-realcode", "version": 1, "command": "simulate" if args.simulate else "analyze",
                       "units": results}, f, indent=1)
    sys.exit(1 if any(r["status"] in ("crash", "timeout", "bad-json") for r in results) else 0)


def header_cache_check(binary, todo, timeout):
    """Reports byte-identical with the header cache off, cold and warm (docs/decisions.md, "Header cache")."""
    cache = tempfile.mkdtemp(prefix="cats-header-cache-")
    differing = []
    for i, (name, root, files, flags) in enumerate(todo, 1):
        print(f"\r[{i}/{len(todo)}] {name[:60]:<60}", end="", file=sys.stderr, flush=True)
        outputs = []
        for setting in ("off", cache, cache):
            proc = subprocess.run(command_line(binary, "analyze", root, files, flags), cwd=root, env=dict(os.environ, CATS_STATIC_HEADER_CACHE=setting), capture_output=True,
                                  text=True, errors="replace", timeout=timeout)
            outputs.append((proc.returncode, proc.stdout, proc.stderr))
        if not outputs[0] == outputs[1] == outputs[2]:
            differing.append(name)
    print(file=sys.stderr)
    entries = os.listdir(cache)
    print(f"{len(todo)} units, {len(differing)} with a difference; "
          f"{sum(e.endswith('.pch') for e in entries)} preambles kept, {sum(e.endswith('.none') for e in entries)} not usable")
    for name in differing:
        print("  differs:", name)
    shutil.rmtree(cache, ignore_errors=True)
    return 1 if differing else 0


def report(results):
    print(f"{'unit':<52} {'status':<8} {'s':>7} {'MB':>7} {'src acc':>8} {'exact':>6} {'indir':>6} {'warn':>5}")
    for r in results:
        share = lambda k: f"{100 * r[k]:.0f}%" if r.get(k) is not None else "-"
        print(f"{r['unit'][:52]:<52} {r['status']:<8} {r['seconds']:>7.2f} {r['rss_mb']:>7.0f} "
              f"{r.get('source_accesses', 0):>8} {share('exact_share'):>6} {share('indirect_share'):>6} {r['warnings']:>5}")
    errors_and_totals(results, "ok", "")
    total_src = sum(r.get("source_accesses", 0) for r in results)
    exact = sum(r.get("source_accesses", 0) * (r.get("exact_share") or 0) for r in results)
    indirect = sum(r.get("source_accesses", 0) * (r.get("indirect_share") or 0) for r in results)
    if total_src:
        print(f"source accesses {total_src}: exact {100 * exact / total_src:.1f}%, indirect {100 * indirect / total_src:.1f}%; "
              f"approximate units {sum(1 for r in results if r.get('approximate'))}")
    reasons = {}
    for r in results:
        for text, n in (r.get("top_reasons") or {}).items():
            reasons[text] = reasons.get(text, 0) + n
    if reasons:
        print("top reasons for approximate accesses (source accesses, summed over units):")
        for text, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:12]:
            print(f"  {n:>7}  {text}")


def report_simulations(results):
    print(f"{'unit':<52} {'status':<8} {'s':>7} {'MB':>7} {'accesses':>12} {'bound':>5} {'warn':>5}")
    for r in results:
        print(f"{r['unit'][:52]:<52} {r['status']:<8} {r['seconds']:>7.2f} {r['rss_mb']:>7.0f} {r.get('simulated', 0):>12} "
              f"{r['bound']:>5} {r['warnings']:>5}")
    errors_and_totals(results, "simulated", " (last rounds)")


def errors_and_totals(results, ok_word, time_note):
    """Each failed unit's first error, then the counts by status, time and memory."""
    for r in results:
        if r.get("first_error"):
            print(f"  {r['unit']}: {r['status']}: {r['first_error']}")
    count = lambda s: sum(1 for r in results if r["status"] == s)
    print()
    print(f"units {len(results)}: {ok_word} {count('ok')}, analysis error {count('error')}, usage error {count('usage')}, "
          f"crash {count('crash')}, timeout {count('timeout')}, bad json {count('bad-json')}")
    print(f"time {sum(r['seconds'] for r in results):.1f} s in all{time_note}, slowest {max(r['seconds'] for r in results):.2f} s; "
          f"peak memory {max(r['rss_mb'] for r in results):.0f} MB")


if __name__ == "__main__":
    main()
