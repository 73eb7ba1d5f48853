#!/usr/bin/env bash
# Installs the Debian 12 packages cats-static builds and tests with (skips when all are present),
# and the npm package of the SARIF validator the review tests run (tests/sarif, pinned by its lock).
set -euo pipefail
cd "$(dirname "$0")/.."

install_sarif_validator() {
  local tool=tests/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  [ -x "$tool" ] && return 0
  echo "install-deps: installing the SARIF validator (npm ci in tests/sarif)"
  npm ci --prefix tests/sarif --no-audit --no-fund --loglevel=error
  chmod u+x "$tool"  # its postinstall does this, unless npm is told not to run install scripts
}
packages=(cmake ninja-build g++ pkg-config python3
  clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev libclang-rt-14-dev
  libisl-dev libginac-dev libcln-dev libgmp-dev libboost-graph-dev catch2
  libcli11-dev nlohmann-json3-dev libfmt-dev libbenchmark-dev valgrind time ccache
  graphviz gnuplot-nox clang-tidy-14 chromium libpng-dev)
# npm (for the SARIF validator) comes with the machine's Node.js; Debian's is installed only when there is none.
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  install_sarif_validator
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
install_sarif_validator
