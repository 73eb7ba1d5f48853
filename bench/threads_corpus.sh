#!/usr/bin/env bash
# One thread against two on the speed corpus (docs/performance.md, "Threads by default"): for each
# kernel of bench/speed_corpus.sh, `simulate --threads 1` and `--threads 2` run interleaved, best of
# --runs wall seconds each (with the user seconds of that run), Cachegrind's geometry,
# `--compiler gcc -O2`. Prints a table and the geometric mean of the gains (1-thread / 2-thread
# wall time). Needs no Cachegrind.
# Usage: bench/threads_corpus.sh [--only NAME]... [--runs N] [path/to/cats-static]
set -euo pipefail
orig=$PWD
cd "$(dirname "$0")/.."
only=() runs=3
while [ $# -gt 0 ]; do
  case $1 in
    --only) only+=("$2"); shift ;;
    --runs) runs=$2; shift ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    -*) echo "threads_corpus.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
bin=$(cd "$orig" && realpath -m "${1:-build/driver/cats-static}")
# the kernels and sizes of bench/speed_corpus.sh, read from it so the two stay the same
mapfile -t speed_set < <(sed -n '/^speed_set=(/,/)/p' bench/speed_corpus.sh | tr -d '()' | sed 's/speed_set=//' | tr ' ' '\n' | grep '=')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-16s %9s %8s %9s %8s %7s\n' kernel "1 thread" user "2 threads" user gain
for spec in "${speed_set[@]}"; do
  program=${spec%%=*} size=${spec#*=}
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$program"; then continue; fi
  declare -A wall=([1]=1e9 [2]=1e9) user=([1]=0 [2]=0)
  for ((r = 0; r < runs; r++)); do
    for t in 1 2; do
      /usr/bin/time -f "%e %U" -o "$work/time" "$bin" simulate "bench/fidelity-corpus/$program.c" -D N="$size" --compiler gcc -O2 \
        --D1=32768,8,64 --LL=262144,8,64 --threads "$t" --format json -o /dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
      read -r w u <"$work/time"
      if python3 -c "import sys; sys.exit(0 if $w < ${wall[$t]} else 1)"; then wall[$t]=$w user[$t]=$u; fi
    done
  done
  echo "$program ${wall[1]} ${user[1]} ${wall[2]} ${user[2]}" >>"$work/rows"
  python3 -c "print('%-16s %8.2fs %7.2fs %8.2fs %7.2fs %6.2fx' % ('$program', ${wall[1]}, ${user[1]}, ${wall[2]}, ${user[2]}, ${wall[1]} / max(${wall[2]}, 0.005)))"
done
python3 - "$work/rows" <<'PY'
import math, sys
gains = [float(f[1]) / max(float(f[3]), 0.005) for f in (line.split() for line in open(sys.argv[1]))]
print(f"{len(gains)} kernels: geometric mean gain of two threads {math.exp(sum(map(math.log, gains)) / len(gains)):.2f}x; "
      f"slower on two: {sum(g < 1 for g in gains)}")
PY
