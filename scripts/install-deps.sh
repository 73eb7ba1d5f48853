#!/usr/bin/env bash
# Installs the Debian 12 packages cats-static builds and tests with (skips when all are present).
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config python3
  clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev libclang-rt-14-dev
  libisl-dev libginac-dev libcln-dev libboost-graph-dev catch2
  libcli11-dev nlohmann-json3-dev libfmt-dev libbenchmark-dev valgrind time ccache
  graphviz gnuplot-nox clang-tidy-14 chromium libpng-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
