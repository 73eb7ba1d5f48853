#!/usr/bin/env bash
# Call-graph blow-up benchmark (issue 6, item 2): programs whose call paths are exponential in
# their size. Prints wall time, peak RSS and JSON size of `cats-static analyze` per program,
# and of `simulate` on the call DAG (which expands every context: that is what it simulates).
# Usage: bench/callgraph_blowup.sh [path/to/cats-static]   (TIMEOUT=seconds per run, default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/driver/cats-static}")
limit=${TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_callgraph.py "$work"

measure() {  # label, then the cats-static arguments; the JSON goes to $work/out.json
  local label=$1
  shift
  rm -f "$work/out.json"
  if /usr/bin/time -f "%e %M" -o "$work/time.txt" timeout "$limit" "$bin" "$@" -o "$work/out.json" 2>/dev/null >/dev/null; then
    read -r secs kb <"$work/time.txt"
    printf "%-34s %9s s %9d MB %12s B\n" "$label" "$secs" "$((kb / 1024))" "$(stat -c %s "$work/out.json")"
  else
    printf "%-34s %s\n" "$label" "failed or over ${limit} s ($(tail -1 "$work/time.txt"))"
  fi
}

printf "%-34s %11s %12s %14s\n" program time "peak RSS" "JSON"
measure "(a) call DAG 2^18, analyze" analyze "$work/dag/dag.c" --format json
measure "(b) 11x11 call grid, analyze" analyze "$work/grid/grid.c" --format json
measure "(c) compression lib, analyze" analyze "$work/complib" --format json
accesses=$(timeout "$limit" "$bin" analyze "$work/complib" --format json 2>/dev/null | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["accesses"]))' 2>/dev/null || echo "n/a")
echo "    (c) distinct accesses listed: $accesses"
measure "(a) call DAG 2^18, simulate" simulate "$work/dag/dag.c" --format json
