#!/usr/bin/env bash
# Regenerates tests/golden/ from the current build. Review `git diff tests/golden` before
# committing: a golden file is an assertion, not a snapshot to accept blindly.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/driver/cats-static}
golden=tests/golden

accesses() {  # name path [--entry f]: one line per access of every calling context, as the tests list them
  local name=$1 path=$2; shift 2
  "$bin" analyze "$path" "$@" --dump contexts 2>/dev/null | python3 -c '
import json, sys
t = json.load(sys.stdin)
scopes, containers = t["scopes"], t["containers"]
def function(scope):
    while scope is not None:
        s = scopes[scope]
        if s["kind"] in ("function", "call"): return s["function"]
        scope = s["parent"]
    return ""
for x in t["events"]:
    if x["kind"] != "access": continue
    line = "%s %d:%d %s %s -> %s %s" % (function(x["scope"]), x["line"], x["column"], x["mode"], x["text"], containers[x["container"]]["name"], x["class"])
    if x["stride_bytes"] is not None: line += " stride=" + x["stride_bytes"]
    for v in x["indirect_via"]: line += " via=" + v
    if x["invariant_in_innermost_loop"]: line += " invariant"
    if x["approximate"]: line += " approximate"
    if x["loop_header"]: line += " header"
    print(line)
' > "$golden/$name.accesses"
}

accesses matmul-stack examples/matmul-stack
accesses matmul-static examples/matmul-static
accesses matmul-heap examples/matmul-heap
accesses matmul-heap.multiply examples/matmul-heap --entry multiply
accesses matmul-ikj examples/matmul-ikj
accesses jacobi-2d examples/jacobi-2d
accesses transpose examples/transpose
accesses spmv-csr examples/spmv-csr
accesses particles-aos examples/particles-aos
accesses multifile examples/multifile/src
accesses alloc-in-loop examples/alloc-in-loop
accesses review.matmul-ijk examples/review/matmul-ijk.c
accesses review.matmul-ikj-fixed examples/review/matmul-ikj-fixed.c
accesses review.column-sums examples/review/column-sums.c
accesses review.column-sums-fixed examples/review/column-sums-fixed.c
accesses review.column-sums-2d examples/review/column-sums-2d.c
accesses review.column-sums-2d-padded examples/review/column-sums-2d-padded.c
accesses review.wavefront examples/review/wavefront.c
accesses review.dot examples/review/dot.c
accesses review.two-passes examples/review/two-passes.c
accesses review.two-passes-fused examples/review/two-passes-fused.c
accesses review.two-passes-shifted examples/review/two-passes-shifted.c
accesses review.transpose examples/review/transpose.c
accesses review.transpose-tiled examples/review/transpose-tiled.c
accesses review.particles examples/review/particles.c
accesses review.particles-soa examples/review/particles-soa.c
accesses review.row-update examples/review/row-update.c
accesses review.row-update-restrict examples/review/row-update-restrict.c
accesses review.gather examples/review/gather.c
accesses review.gather-sorted examples/review/gather-sorted.c

"$bin" analyze examples/matmul-heap --entry multiply > "$golden/matmul-heap.multiply.txt"
"$bin" analyze examples/matmul-heap --entry multiply --format json > "$golden/matmul-heap.multiply.json"
"$bin" analyze examples/spmv-csr > "$golden/spmv-csr.txt" 2>/dev/null
"$bin" analyze examples/spmv-csr --format json > "$golden/spmv-csr.json" 2>/dev/null
"$bin" analyze examples/matmul-heap --entry multiply --counts > "$golden/matmul-heap.multiply.counts.txt"
"$bin" analyze examples/spmv-csr --entry spmv --counts --format json > "$golden/spmv-csr.spmv.counts.json" 2>/dev/null
"$bin" simulate examples/matmul-heap -D N=24 --D1=4096,2,64 --LL=65536,8,64 --format cachegrind > "$golden/matmul-heap.cachegrind.out"
"$bin" simulate tests/inputs/statistics/two_kernels.c --set-histogram --reuse-matrix --traffic --D1=4096,4,64 --LL=65536,8,64 > "$golden/two-kernels.statistics.txt"
echo "golden files regenerated in $golden"
