#!/usr/bin/env bash
# One command for a newcomer: install dependencies, build, analyse a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
echo
echo "== cats-static analyze examples/matmul-heap --entry multiply"
build/driver/cats-static analyze examples/matmul-heap --entry multiply
echo
echo "== cats-static simulate examples/matmul-static -D N=400 --model O2 (CATS paper's 32 KiB + 256 KiB caches)"
build/driver/cats-static simulate examples/matmul-static -D N=400 --model O2 --miss-classes --by container
echo
echo "== cats-static report examples/jacobi-2d -D N=200 --miss-classes -o build/report.html (open it in a browser)"
build/driver/cats-static report examples/jacobi-2d -D N=200 --miss-classes -o build/report.html
