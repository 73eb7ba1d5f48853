#!/usr/bin/env bash
# A synthetic whole project: FILES translation units (default 100) under src/, a shared header
# in include/, a per-file -D, cross-file calls (each stage calls a leaf in the next file), a
# static helper of the same name in every file, and a compile_commands.json in build/.
# Times `analyze DIR` and `analyze -p build` (target: < 60 s each) and reports peak RSS.
# Usage: bench/project_scale.sh [path/to/cats-static]   (FILES=N to change the size)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/driver/cats-static}")
files=${FILES:-100}
root=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$root"' EXIT
mkdir -p "$root/src" "$root/include" "$root/build"

{
  echo "#ifndef PROJECT_H"
  echo "#define PROJECT_H"
  echo "#include <stdio.h>"
  echo "#include <stdlib.h>"
  echo "#include <string.h>"
  echo "#ifndef LEN"
  echo "#define LEN 1024"
  echo "#endif"
  for k in $(seq 0 $((files - 1))); do
    echo "void stage_$k(double *a, double *b, int n);"
    echo "void leaf_$k(double *v, int n);"
  done
  echo "#endif"
} >"$root/include/project.h"

for k in $(seq 0 $((files - 1))); do
  next=$(((k + 1) % files))
  cat >"$root/src/unit_$k.c" <<C
#include "project.h"
#define STRIDE_$k ($((k % 4)) + 1)
static void helper(double *v, int n) {
  for (int i = 0; i < n; i += STRIDE_$k) v[i] += 1.0;
}
void leaf_$k(double *v, int n) {
  for (int i = 0; i < n; i++) v[i] = v[i] * 0.5 + $k;
}
void stage_$k(double *a, double *b, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i * n + j] += b[j * n + i];
  helper(a, n);
  leaf_$next(b, n);
}
C
done

{
  echo "#include \"project.h\""
  echo "double A[LEN * LEN], B[LEN * LEN];"
  echo "int main(int argc, char **argv) {"
  for k in $(seq 0 $((files - 1))); do echo "  stage_$k(A, B, LEN);"; done
  echo "  return 0;"
  echo "}"
} >"$root/src/main.c"

{
  echo "["
  sep=""
  for f in "$root"/src/*.c; do
    name=src/$(basename "$f")
    printf '%s  {"directory": "%s", "file": "%s", "arguments": ["cc", "-I", "include", "-DLEN=512", "-std=c11", "-c", "%s"]}' \
      "$sep" "$root" "$name" "$name"
    sep=$',\n'
  done
  echo
  echo "]"
} >"$root/build/compile_commands.json"

measure() {  # label, then the command: prints wall seconds, peak RSS, exit code and events
  local label=$1
  shift
  local stats rc=0
  stats=$( { /usr/bin/time -f "%e %M" "$@" --dump trace -o "$root/trace.json" 2>&1 >/dev/null || true; } | tail -1)
  "$@" >/dev/null 2>&1 || rc=$?
  local events
  events=$(grep -cE '"kind": "access"' "$root/trace.json" || true)
  printf "%-30s %8s s %8s MB   exit %s   %s access events\n" "$label" "${stats%% *}" "$((${stats##* } / 1024))" "$rc" "$events"
}

echo "synthetic project: $((files + 1)) C files in $root"
cd "$root"
measure "analyze src -I include" "$bin" analyze src -I include
measure "analyze -p build" "$bin" analyze -p build
