#!/usr/bin/env bash
# Real-code corpus: downloads Debian source packages and npm-shipped C (bench/realcode/fetch.sh,
# kept out of the repository), analyses every unit of bench/realcode/units.tsv and prints units tried,
# ok, crashes, timeouts, time, peak memory and the exact-access share. Exit 1 on a crash or timeout.
# Usage: bench/realcode.sh [--binary PATH] [--timeout S] [--json FILE] [--simulate [--value V]] [--header-cache-check] [UNIT-PREFIX...]
# (--simulate: run simulate instead, binding the parameters each run names to V, default 64)
set -euo pipefail
cd "$(dirname "$0")/.."
bench/realcode/fetch.sh >&2
exec python3 bench/realcode/run.py "$@"
