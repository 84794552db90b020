#!/usr/bin/env bash
# Packs what bench/compare.sh runs into one archive, so that the table can be
# measured on a machine that has none of this project's packages and cannot
# fetch them (a quiet many-core machine lent for a few minutes, say): the
# benchmark binaries, the peers it drives (node, redis-server, redis-cli,
# haproxy, curl), every shared library they load, glibc's included, and the
# TypeScript peer's node_modules.
#
#   bench/bundle.sh OUT.tar.xz              the benchmarks (compare.sh's targets built first)
#   bench/bundle.sh OUT.tar.xz FILE...      these executables instead (fuzz targets, say)
#
# Unpacked at BUNDLE_AT (default /tmp/cafmcp-bundle; the path is written
# into the binaries), from a checkout of the same commit:
#
#   mkdir -p /tmp/cafmcp-bundle && tar -C /tmp/cafmcp-bundle -xJf OUT.tar.xz
#   source /tmp/cafmcp-bundle/env.sh && bench/compare.sh
#
# Each binary's loader and library path point into the bundle (patchelf:
# the interpreter, and an RPATH that its libraries' lookups inherit), so the
# other machine's glibc, older or newer, plays no part; nothing goes through
# LD_LIBRARY_PATH, which would hand this glibc to that machine's own
# programs (python3, sh). env.sh puts the bundle first on PATH and sets
# BENCH_BIN, which makes compare.sh use those binaries as they are (no
# install, no build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
archive=$(realpath -m "${1:?usage: bench/bundle.sh OUT.tar.xz [FILE...]}")
shift
at=${BUNDLE_AT:-/tmp/cafmcp-bundle}
command -v patchelf >/dev/null || apt-get install -y -qq patchelf >/dev/null
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"

if (($#)); then
  for f in "$@"; do strip --strip-debug -o "$stage/bin/$(basename "$f")" "$f"; done
else
  BUILD_ONLY=1 "$root/bench/compare.sh"
  for b in $(LIST_TARGETS=1 "$root/bench/compare.sh"); do
    strip --strip-debug -o "$stage/bin/$b" "$root/build/bin/$b"
  done
  for tool in node redis-server redis-cli haproxy curl; do
    cp -L "$(command -v "$tool")" "$stage/bin/"
  done
  tar -C "$root/bench/peers/ts" -cf "$stage/ts_node_modules.tar" node_modules
fi

# Every library the binaries load (ldd lists the whole closure) and the
# loader itself.
for f in "$stage"/bin/*; do
  ldd "$f" | awk '$3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}'
done | sort -u | while read -r lib; do
  cp -L "$lib" "$stage/lib/$(basename "$lib")"
done
loader=$(basename "$(ls "$stage"/lib/ld-linux-*.so.*)")
chmod u+w "$stage"/bin/* "$stage"/lib/*
for f in "$stage"/bin/*; do
  patchelf --set-interpreter "$at/lib/$loader" --force-rpath --set-rpath "$at/lib" "$f"
done
for f in "$stage"/lib/*; do
  [[ $(basename "$f") == "$loader" ]] || patchelf --force-rpath --set-rpath "$at/lib" "$f"
done

cat >"$stage/env.sh" <<'ENV'
# Sourced on the other machine, in the checkout: the bundle's binaries
# first, the TypeScript peer's node_modules in place, open files raised.
bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$bundle/bin:$PATH" BENCH_BIN="$bundle/bin"
if [[ -f "$bundle/ts_node_modules.tar" && ! -d bench/peers/ts/node_modules ]]; then
  tar -C bench/peers/ts -xf "$bundle/ts_node_modules.tar"
fi
ulimit -n 65536 2>/dev/null || true
ENV

tar -C "$stage" -cJf "$archive" .
echo "bundle: $archive ($(du -h "$archive" | cut -f1)), to be unpacked at $at" >&2
