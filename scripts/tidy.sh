#!/usr/bin/env bash
# Runs clang-tidy (the repo's .clang-tidy) over the tool's own sources; any warning fails the run.
# Uses build/compile_commands.json (run scripts/build.sh first) minus GCC-only flags Clang rejects.
# Usage: scripts/tidy.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json; run scripts/build.sh $build" >&2; exit 2; }
db=$build/tidy
mkdir -p "$db"
# -fno-tree-loop-distribute-patterns (sim/cache) is GCC's; Clang stops at unknown arguments.
sed 's/ -fno-tree-loop-distribute-patterns//g' "$build/compile_commands.json" >"$db/compile_commands.json"
log=$db/tidy.log
run-clang-tidy-14 -p "$db" -j "$(nproc)" -quiet "^$PWD/(frontend|symbolic|tracer|sim|reports|driver)/" >"$log" 2>&1 || true
findings=$(grep -E '(warning|error): ' "$log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u || true)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "tidy: $(echo "$findings" | wc -l) finding(s); full log in $log" >&2
  exit 1
fi
echo "tidy: no findings ($(grep -c '^clang-tidy' "$log" || true) files)"
