#!/usr/bin/env bash
# Builds the libFuzzer targets into build-fuzz/ (clang++-14, AddressSanitizer + UBSan, CMake option
# CATS_FUZZ=ON) and runs each for N seconds (default 180), or for exactly R inputs from seed S
# (--runs R --seed S: the same inputs on every machine, which is what CI runs). See docs/fuzzing.md.
#   scripts/fuzz.sh [--seconds N | --runs R] [--seed S] [--build-only] [TARGET...]
#   TARGET: frontend_fuzz trace_reader_fuzz report_parser_fuzz
# Inputs are read from fuzz/corpus/TARGET and fuzz/regressions/TARGET (the frontend also from examples/
# and tests/inputs/bad/); new interesting inputs go to
# build-fuzz/corpus/TARGET (not committed), crashes, timeouts and out-of-memory inputs to
# fuzz/crashes/TARGET/. Exits 1 when any target found a problem.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=180
runs=
seed=0
build_only=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    --runs) runs=$2; shift 2 ;;
    --runs=*) runs=${1#*=}; shift ;;
    --seed) seed=$2; shift 2 ;;
    --seed=*) seed=${1#*=}; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(frontend_fuzz trace_reader_fuzz report_parser_fuzz)
for t in "${targets[@]}"; do
  case "$t" in frontend_fuzz|trace_reader_fuzz|report_parser_fuzz) ;; *) echo "fuzz.sh: unknown target $t" >&2; exit 2 ;; esac
done

command -v clang++-14 >/dev/null || { echo "fuzz.sh: clang++-14 is missing (scripts/install-deps.sh)" >&2; exit 2; }
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$PWD")} CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# -O1 with line tables, as libFuzzer's documentation builds: instrumented -O2 took twice as long to
# build (frontend/ builds at -O0 there: its fuzzer's time is in Clang's own, optimised, parser).
fuzz_flags="-O1 -gline-tables-only -DNDEBUG"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$fuzz_flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$fuzz_flags" \
  -DCATS_FUZZ=ON -DCATS_BUILD_TESTS=OFF -DCATS_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]}"
[ "$build_only" -eq 0 ] || exit 0

status=0
for t in "${targets[@]}"; do
  case "$t" in
    frontend_fuzz) extra=(-max_len=4096 -dict=fuzz/c.dict); seeds=(examples tests/inputs/bad) ;;
    trace_reader_fuzz) extra=(-max_len=32768 -dict=fuzz/json.dict); seeds=() ;;
    report_parser_fuzz) extra=(-max_len=8192 -dict=fuzz/report.dict); seeds=() ;;
  esac
  mkdir -p "build-fuzz/corpus/$t" "fuzz/crashes/$t" "fuzz/corpus/$t" "fuzz/regressions/$t"
  if [ -n "$runs" ]; then
    # A fixed budget from a fixed seed and an empty scratch corpus: a reproducible run.
    scratch="build-fuzz/corpus-reproducible/$t"; rm -rf "$scratch"; mkdir -p "$scratch"
    budget=(-runs="$runs"); echo "fuzz.sh: $t for ${runs} inputs, seed ${seed}"
  else
    scratch="build-fuzz/corpus/$t"
    budget=(-max_total_time="$seconds"); echo "fuzz.sh: $t for ${seconds} s"
  fi
  # stderr of the target (Clang's parse errors) is closed; libFuzzer's and the sanitizers' reports stay.
  if ! "build-fuzz/fuzz/$t" "${budget[@]}" -seed="$seed" -timeout=30 -rss_limit_mb=4096 -close_fd_mask=2 \
      -print_final_stats=1 -artifact_prefix="fuzz/crashes/$t/" "${extra[@]}" \
      "$scratch" "fuzz/corpus/$t" "fuzz/regressions/$t" "${seeds[@]}"; then
    echo "fuzz.sh: $t FAILED; the input is in fuzz/crashes/$t/ (make it a regression in fuzz/regressions/$t/)" >&2
    status=1
  fi
done
exit $status
