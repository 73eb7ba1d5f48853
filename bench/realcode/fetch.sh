#!/usr/bin/env bash
# Downloads the real-code corpus (Debian source packages and C that npm packages ship) into
# $CATS_CORPUS (default /tmp/cats-corpus). Idempotent; nothing of it enters the repository.
set -euo pipefail
corpus=${CATS_CORPUS:-/tmp/cats-corpus}
mkdir -p "$corpus/debian" "$corpus/npm"
debian=(zlib bzip2 lz4 cjson libyaml lua5.4 kissfft libsamplerate minimap2)
npm=(lz4@0.6.5 cpu-features@0.0.10 tree-sitter-c@0.24.1 tree-sitter-json@0.24.8 xxhash@0.3.0)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "fetch: enabling deb-src in the apt sources"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    $sudo sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
  else
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $sudo tee -a /etc/apt/sources.list >/dev/null
  fi
  $sudo apt-get update -q >/dev/null
fi
command -v dpkg-source >/dev/null || $sudo apt-get install -y -q dpkg-dev >/dev/null

cd "$corpus/debian"
for p in "${debian[@]}"; do
  if compgen -G "${p}_*.dsc" >/dev/null; then continue; fi
  echo "fetch: apt-get source $p"
  apt-get source -q "$p" >/dev/null 2>&1 || echo "fetch: $p is not available from the mirrors now; its units are skipped" >&2
done
cd "$corpus/npm"
for p in "${npm[@]}"; do
  dir=${p//@/-}
  [ -d "$dir" ] && continue
  echo "fetch: npm pack $p"
  tgz=$(npm pack -q "$p" 2>/dev/null | tail -1)
  mkdir -p "$dir" && tar xzf "$tgz" -C "$dir" && rm -f "$tgz"
done
# What ./configure would have written: the few config.h macros the analysed files use.
yaml=$(ls -d "$corpus"/debian/libyaml-*/ | head -1)
[ -f "$yaml/config.h" ] || printf '%s\n' '#define YAML_VERSION_MAJOR 0' '#define YAML_VERSION_MINOR 2' \
  '#define YAML_VERSION_PATCH 5' '#define YAML_VERSION_STRING "0.2.5"' > "$yaml/config.h"
src=$(ls -d "$corpus"/debian/libsamplerate-*/ | head -1)
[ -f "$src/src/config.h" ] || printf '%s\n' '#define CPU_CLIPS_NEGATIVE 0' '#define CPU_CLIPS_POSITIVE 0' \
  '#define ENABLE_SINC_BEST_CONVERTER 1' '#define ENABLE_SINC_FAST_CONVERTER 1' '#define ENABLE_SINC_MEDIUM_CONVERTER 1' \
  '#define HAVE_STDBOOL_H 1' > "$src/src/config.h"
lua=$(ls -d "$corpus"/debian/lua5.4-*/ | head -1)
[ -f "$lua/src/lua5.4-deb-multiarch.h" ] || echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' > "$lua/src/lua5.4-deb-multiarch.h"
echo "fetch: corpus ready in $corpus"
