#!/usr/bin/env bash
# Builds (incrementally) and runs the whole test suite through CTest.
# With --sanitize, uses an AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--sanitize" ]; then
  scripts/build.sh build-asan -DCATS_SANITIZE=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  ctest --test-dir build-asan --output-on-failure -j 2
else
  scripts/build.sh build
  ctest --test-dir build --output-on-failure -j 2
fi
