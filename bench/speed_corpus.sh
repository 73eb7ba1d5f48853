#!/usr/bin/env bash
# Speed against Cachegrind (issue 9), side by side in one run: for each kernel of the speed set
# (bench/fidelity-corpus programs at sizes where Cachegrind takes >= 0.5 s on an idle machine of
# this class, 2026-11-23), the plain `gcc -O2 -g` build under `valgrind --tool=cachegrind
# --cache-sim=yes` versus `cats-static simulate --compiler gcc -O2` (analysis included), same
# geometry. Prints wall times, the ratio cats/Cachegrind per kernel and its geometric mean, and
# writes the figures as JSON.
# Usage: bench/speed_corpus.sh [--only NAME]... [--json FILE] [--threads N] [--repeat R] [path/to/cats-static]
# (--threads: cats-static's simulation threads, its own default (0: one per core, at most two)
# unless given; Cachegrind has one. --repeat: R rounds over the whole set, each kernel's two runs
# side by side in each round, the best of each kept: on a shared machine single runs vary by
# tens of percent, and a disturbance of a few seconds spoils one round's try, not all of them.)
set -euo pipefail
orig=$PWD
cd "$(dirname "$0")/.."
geometry=(--D1=32768,8,64 --LL=262144,8,64)
# kernel=size: linear algebra, stencils with time loops, dynamic programming, filters, data mining
speed_set=(atax=4000 bicg=4000 cholesky=600 conv2d=832 correlation=400 covariance=400 deriche=2000
  fdtd2d=1300 floyd_warshall=400 gemver=3000 heat3d=130 jacobi1d=1600000 jacobi2d=1400 lcs=5000 lu=570
  matmul_ijk=380 matmul_ikj=400 matvec=4000 matvec_t=4000 mvt=4000 nussinov=500 seidel2d=1800 syrk=480
  trisolv=5000 box_blur=2000 kmeans=200000)

only=() json=speed-corpus.json threads=0 repeat=1
while [ $# -gt 0 ]; do
  case $1 in
    --only) only+=("$2"); shift ;;
    --json) json=$2; shift ;;
    --threads) threads=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "speed_corpus.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
inorig() { (cd "$orig" && realpath -m "$1"); }
bin=$(inorig "${1:-build/driver/cats-static}")
json=$(inorig "$json")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {  # wall seconds of a command to the microsecond (time(1) gives hundredths: 30 % of a 0.03 s run), its output discarded
  local out=$1 start end
  shift
  start=$EPOCHREALTIME
  "$@" >"$out" 2>"$out.err" || { echo "failed: $*" >&2; cat "$out.err" >&2; return 1; }
  end=$EPOCHREALTIME
  python3 -c "import sys; print('%.4f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$end"
}

rows=$work/rows
: >"$rows"
kernels=()
declare -A size_of best_cg best_cats
for spec in "${speed_set[@]}"; do
  program=${spec%%=*}
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$program"; then continue; fi
  kernels+=("$program")
  size_of[$program]=${spec#*=}
  gcc -O2 -g -DN="${size_of[$program]}" -o "$work/$program" "bench/fidelity-corpus/$program.c" -lm
done
# Rounds over the whole set, the best of each kept: a try is minutes from the kernel's next
# one, so a few seconds of load elsewhere on the machine spoil at most one of them.
for ((r = 1; r <= repeat; r++)); do
  [ "$repeat" -gt 1 ] && echo "round $r of $repeat" >&2
  for program in "${kernels[@]}"; do
    src=bench/fidelity-corpus/$program.c size=${size_of[$program]}
    one=$(seconds "$work/cg.out" valgrind --tool=cachegrind --cache-sim=yes "${geometry[@]}" --I1=32768,8,64 \
      --cachegrind-out-file=/dev/null "$work/$program")
    best_cg[$program]=$(printf '%s\n' ${best_cg[$program]:-} "$one" | sort -g | head -n 1)
    one=$(seconds "$work/cats.out" "$bin" simulate "$src" -D N="$size" --compiler gcc -O2 "${geometry[@]}" --threads "$threads" --format json \
      -o "$work/$program.json")
    best_cats[$program]=$(printf '%s\n' ${best_cats[$program]:-} "$one" | sort -g | head -n 1)
  done
done
printf '%-16s %8s %10s %10s %8s %12s %10s\n' kernel N "cachegrind" "cats" "ratio" accesses "M acc/s" >&2
for program in "${kernels[@]}"; do
  accesses=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['accesses'])" "$work/$program.json")
  python3 - "$program" "${size_of[$program]}" "${best_cg[$program]}" "${best_cats[$program]}" "$accesses" >>"$rows" <<'PY'
import json, sys
program, size, cg, cats, accesses = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print(json.dumps({"kernel": program, "N": size, "cachegrind_s": cg, "cats_s": cats,
                  "ratio": cats / max(cg, 1e-9), "accesses": accesses}))
PY
  tail -n 1 "$rows" | python3 -c "
import json, sys
r = json.loads(sys.stdin.read())
print('%-16s %8d %9.3fs %9.3fs %7.3fx %12d %10.0f' % (r['kernel'], r['N'], r['cachegrind_s'], r['cats_s'], r['ratio'],
      r['accesses'], r['accesses'] / max(r['cats_s'], 1e-9) / 1e6))" >&2
done
python3 - "$rows" "$json" "$bin" "$threads" "$repeat" <<'PY'
import json, math, platform, sys, datetime
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
if not rows:
    sys.exit("speed_corpus.sh: no kernel ran")
geomean = math.exp(sum(math.log(max(r["ratio"], 1e-9)) for r in rows) / len(rows))
worst = max(rows, key=lambda r: r["ratio"])
summary = {"format": "cats-static-speed-corpus", "version": 1, "binary": sys.argv[3], "threads": int(sys.argv[4]),
           "repeat": int(sys.argv[5]), "machine": platform.node(), "processor": platform.processor() or platform.machine(),
           "date": datetime.date.today().isoformat(), "geomean_ratio": geomean,
           "worst": {"kernel": worst["kernel"], "ratio": worst["ratio"]},
           "slower_than_cachegrind": [r["kernel"] for r in rows if r["ratio"] > 1.0], "rows": rows}
json.dump(summary, open(sys.argv[2], "w"), indent=1)
print("\n%d kernels: cats-static / Cachegrind geomean %.3fx (target <= 0.1x), worst %.3fx (%s), slower than Cachegrind: %s"
      % (len(rows), geomean, worst["ratio"], worst["kernel"], ", ".join(summary["slower_than_cachegrind"]) or "none"), file=sys.stderr)
PY
