#!/usr/bin/env bash
# Fidelity of plain builds (issue 8): every program of bench/fidelity-corpus built the way users
# build it (`gcc -O2 -g` and `clang -O2 -g`, nothing else), run under Cachegrind, and predicted by
# `cats-static simulate` with the same geometry; D1 and LL misses compared in total and per
# function (bench/fidelity_plain.py says how functions are matched; docs/fidelity.md shows the table).
# Usage: bench/fidelity_plain.sh [--quick] [--compiler gcc|clang] [--only NAME] [-j N]
#                                [--json FILE] [--keep DIR] [path/to/cats-static]
#   --quick      every program at its first (in-cache) size only
#   --only NAME  one program (repeatable)
#   --json FILE  where the machine-readable summary goes (default fidelity-plain.json)
#   --keep DIR   keep binaries, Cachegrind outputs and simulation JSON there
# Sizes per program come from its `fidelity-sizes: MACRO s1 s2 ...` header line, the decision
# it exercises from `fidelity-decision:`, and what a user who knows the data would add to
# `simulate` from an optional `fidelity-options: ...` line (e.g. `--trips traverse:28=N`).
set -euo pipefail
orig=$PWD
cd "$(dirname "$0")/.."
corpus=bench/fidelity-corpus
D1=32768,8,64
LL=262144,8,64

if [ "${1:-}" = "--job" ]; then
  # One row, run by the loop below (possibly in parallel): --job BIN WORK PROGRAM COMPILER SIZE MODELFLAGS
  bin=$2 work=$3 program=$4 compiler=$5 size=$6 modelflags=$7
  src=$corpus/$program.c
  read -r _ macro _ < <(grep -m1 -o 'fidelity-sizes:.*' "$src")
  decision=$(grep -m1 -o 'fidelity-decision:.*' "$src" | sed 's/^fidelity-decision: *//; s/ *\*\/$//')
  options=$(grep -m1 -o 'fidelity-options:.*' "$src" | sed 's/^fidelity-options: *//; s/ *\*\/$//' || true)
  cc=$compiler
  [ "$compiler" = clang ] && ! command -v clang >/dev/null && cc=clang-14
  exe=$work/$program-$compiler-$size
  failed() {  # the row says what failed, with the tool's first error
    python3 -c 'import json, sys; print(json.dumps({"error": sys.argv[1] + ": " + sys.argv[2]}))' \
      "$1" "$(grep -m1 'error' "$2" || grep -v '^==' "$2" | tail -n 1)" >"$exe.cats.json"
  }
  touch "$exe.cg"
  # shellcheck disable=SC2086 # modelflags and options are lists of options
  if ! "$cc" -O2 -g -D"$macro=$size" -o "$exe" "$src" -lm 2>"$exe.cc.err"; then
    failed "$cc failed" "$exe.cc.err"
  elif ! valgrind --tool=cachegrind --cache-sim=yes --D1=$D1 --LL=$LL --I1=$D1 \
      --cachegrind-out-file="$exe.cg" "$exe" >/dev/null 2>"$exe.cg.err"; then
    failed "cachegrind failed" "$exe.cg.err"
  elif ! "$bin" simulate "$src" -D "$macro=$size" $modelflags $options --D1=$D1 --LL=$LL --format json \
      -o "$exe.cats.json" 2>"$exe.cats.err"; then
    failed "cats-static simulate failed" "$exe.cats.err"
  fi
  python3 bench/fidelity_plain.py job "$exe.cg" "$work/baseline-$compiler.cg" "$exe.cats.json" "$src" "$program" "$compiler" "$macro" "$size" \
    "$decision" "$work/rows/$program-$compiler-$size.json" "$options"
  exit 0
fi

quick=0 jobs=1 json=fidelity-plain.json keep="" compilers="gcc clang" only=()
command_line="bench/fidelity_plain.sh $*"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --compiler) compilers=$2; shift ;;
    --only) only+=("$2"); shift ;;
    -j) jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --json) json=$2; shift ;;
    --keep) keep=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fidelity_plain.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
inorig() { (cd "$orig" && realpath -m "$1"); }
bin=$(inorig "${1:-build/driver/cats-static}")
json=$(inorig "$json")
for c in $compilers; do
  case $c in gcc|clang) ;; *) echo "fidelity_plain.sh: --compiler gcc or clang, not $c" >&2; exit 2 ;; esac
done
if [ ${#only[@]} = 0 ]; then
  for src in "$corpus"/*.c; do only+=("$(basename "$src" .c)"); done
fi

if [ -n "$keep" ]; then work=$(inorig "$keep"); mkdir -p "$work"; rm -rf "$work/rows"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/rows"

# The compiler model (issue 8) adds --compiler; older binaries know only --model O2.
# (The help is read whole first: `grep -q` closing the pipe early made pipefail say "no".)
knows_compiler=0
help=$("$bin" simulate --help)
[[ $help == *--compiler* ]] && knows_compiler=1

# A trivial program per compiler: its libc memset/memcpy counts (start-up, printf) are not the program's.
printf '#include <stdio.h>\nint main(void) {\n  printf("%%f\\n", 1.0);\n  return 0;\n}\n' >"$work/baseline.c"
for compiler in $compilers; do
  cc=$compiler
  [ "$compiler" = clang ] && ! command -v clang >/dev/null && cc=clang-14
  "$cc" -O2 -g -o "$work/baseline-$compiler" "$work/baseline.c"
  valgrind --tool=cachegrind --cache-sim=yes --D1=$D1 --LL=$LL --I1=$D1 \
    --cachegrind-out-file="$work/baseline-$compiler.cg" "$work/baseline-$compiler" >/dev/null 2>&1
done

list=$work/jobs
: >"$list"
for program in "${only[@]}"; do
  src=$corpus/$program.c
  [ -f "$src" ] || { echo "fidelity_plain.sh: no program $src" >&2; exit 2; }
  read -r _ _ sizes < <(grep -m1 -o 'fidelity-sizes:.*' "$src" | sed 's/ *\*\/$//')
  [ $quick = 1 ] && sizes=${sizes%% *}
  for compiler in $compilers; do
    flags="--model O2"
    [ $knows_compiler = 1 ] && flags="--compiler $compiler -O2"
    for size in $sizes; do echo "$program $compiler $size $flags" >>"$list"; done
  done
done
total=$(wc -l <"$list")
echo "fidelity (plain -O2 -g builds): $total runs, -j $jobs, $bin" >&2
start=$SECONDS
while read -r program compiler size flags; do
  printf '%s\0' "--job" "$bin" "$work" "$program" "$compiler" "$size" "$flags"
done <"$list" | xargs -0 -n 7 -P "$jobs" "$0" | {
  k=0
  while IFS= read -r line; do k=$((k + 1)); printf '[%d/%d %ds] %s\n' "$k" "$total" $((SECONDS - start)) "$line" >&2; done
}
echo >&2
modelflags="--model O2"
[ $knows_compiler = 1 ] && modelflags="--compiler gcc|clang -O2"
python3 bench/fidelity_plain.py summary "$work/rows" "$json" "$command_line" "$bin" "$modelflags"
echo "took $((SECONDS - start)) s" >&2
