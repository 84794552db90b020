#!/usr/bin/env bash
# The install tests' driver (registered in CMakeLists.txt here): real
# installs and real builds of the consumer project in consumer/, which must
# print the right answers and exit 0. On failure it prints the step that
# failed and the end of the log of everything it ran.
#
#   run.sh prefix        cmake --install the build tree into <build>/install-test/installed
#   run.sh find_package  build + run the consumer against that prefix with find_package
#   run.sh pkg-config    ... with pkg-config
#   run.sh subdirectory  build + run it with add_subdirectory(<source tree>)
#   run.sh deb           cpack -G DEB, dpkg -x into a scratch root, check the
#                        packages' dependencies with apt, build + run against the root
#   run.sh shared        a BUILD_SHARED_LIBS build (libraries only): SONAMEs,
#                        a consumer linking the .so files, both flavours in one package
#
# Environment (set by CTest): CAFMCP_SOURCE_DIR, CAFMCP_BUILD_DIR, CMAKE, CPACK,
# CXX_COMPILER, BUILD_TYPE, CXX_FLAGS, LAUNCHER (ccache or empty).
set -euo pipefail
mode=$1
src=$CAFMCP_SOURCE_DIR
build=$CAFMCP_BUILD_DIR
tests=$build/install-test
work=$tests/$mode
prefix=$tests/installed # what the prefix test installs, the next two use
consumer=$src/test/install/consumer
rm -rf "$work"
mkdir -p "$work"
log=$work/log.txt
: >"$log"
# Paths below the source tree become relative for ccache, as in scripts/build.
export CCACHE_BASEDIR=$src

step() {
  echo "== $*" | tee -a "$log"
  if ! "$@" >>"$log" 2>&1; then
    echo "install test '$mode' FAILED at: $*"
    echo "---- last 150 lines of $log"
    tail -n 150 "$log"
    exit 1
  fi
}
check() { # check <what> <command...>: a condition, reported like a step
  local what=$1; shift
  if "$@" >>"$log" 2>&1; then
    echo "ok: $what" | tee -a "$log"
  else
    echo "install test '$mode' FAILED: $what"
    echo "---- last 150 lines of $log"
    tail -n 150 "$log"
    exit 1
  fi
}

configure_consumer() { # <build dir> <extra cmake args...>
  local dir=$1; shift
  step "$CMAKE" -S "$consumer" -B "$dir" -G "${GENERATOR:-Ninja}" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
    -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DCMAKE_CXX_FLAGS="$CXX_FLAGS" \
    ${LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER="$LAUNCHER"} "$@"
}
run_consumer() { # <build dir>: the program must answer right
  step "$1/consumer" "$1/spans.jsonl"
  check "in-process answer" grep -q "^in-process: add(2, 3) = 5$" "$log"
  check "HTTP answer" grep -q "^http: add(40, 2) = 42$" "$log"
}
public_headers_clean() { # <include dir>: no private dependency in the public API
  ! grep -rlE "#include *[<\"](valijson|boost|caf|hiredis|openssl)/" "$1/cafmcp"
}

case $mode in
prefix)
  rm -rf "$prefix"
  step "$CMAKE" --install "$build" --prefix "$prefix"
  check "public headers include no private dependency" public_headers_clean "$prefix/include"
  check "CMake package installed" test -f "$(find "$prefix" -name cafmcpConfig.cmake)"
  ;;
find_package)
  configure_consumer "$work/build" -DCONSUMER_MODE=find_package -DCMAKE_PREFIX_PATH="$prefix"
  step "$CMAKE" --build "$work/build" -j 1
  run_consumer "$work/build"
  ;;
pkg-config)
  export PKG_CONFIG_PATH
  PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name cafmcp-server.pc)")
  configure_consumer "$work/build" -DCONSUMER_MODE=pkg-config
  step "$CMAKE" --build "$work/build" -j 1
  run_consumer "$work/build"
  ;;
subdirectory)
  # The consumer's build tree sits next to cafmcp's (<build>-install-subdirectory),
  # not inside it: its compile commands then run one level below the source
  # root as cafmcp's own do, so with ccache (CCACHE_BASEDIR) cafmcp's sources
  # hit what the main build compiled instead of compiling again.
  dir=${build}-install-subdirectory
  rm -rf "$dir"
  configure_consumer "$dir" -DCONSUMER_MODE=subdirectory -DCAFMCP_SOURCE_DIR="$src"
  step "$CMAKE" --build "$dir" -j 2 --target consumer
  run_consumer "$dir"
  ;;
deb)
  step "$CPACK" -G DEB --config "$build/CPackConfig.cmake" -B "$work/packages"
  debs=("$work"/packages/*.deb)
  check "two packages (runtime, development)" test ${#debs[@]} -eq 2
  for d in "${debs[@]}"; do
    step dpkg-deb -f "$d" Package Version Depends
    step dpkg -x "$d" "$work/root"
  done
  # Would apt install them on this system? (simulated: nothing changes)
  if command -v apt-get >/dev/null; then
    step apt-get -s install "${debs[@]}"
  fi
  check "public headers include no private dependency" public_headers_clean "$work/root/usr/include"
  configure_consumer "$work/build" -DCONSUMER_MODE=find_package -DCMAKE_PREFIX_PATH="$work/root/usr"
  check "consumer found cafmcp in the unpacked package" grep -q "from $work/root/usr/lib" "$log"
  step "$CMAKE" --build "$work/build" -j 1
  run_consumer "$work/build"
  ;;
shared)
  # Next to the build tree for ccache, as subdirectory's (see there).
  dir=${build}-install-shared
  rm -rf "$dir"
  step "$CMAKE" -S "$src" -B "$dir" -G "${GENERATOR:-Ninja}" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
    -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DCMAKE_CXX_FLAGS="$CXX_FLAGS" ${LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER="$LAUNCHER"} \
    -DBUILD_SHARED_LIBS=ON -DCAFMCP_INSTALL=ON -DCAFMCP_BUILD_TESTS=OFF -DCAFMCP_BUILD_BENCH=OFF \
    -DCAFMCP_BUILD_EXAMPLES=OFF -DCAFMCP_BUILD_TOOLS=OFF
  step "$CMAKE" --build "$dir" -j 2
  step "$CMAKE" --install "$dir" --prefix "$work/prefix"
  lib=$(dirname "$(find "$work/prefix" -name 'libcafmcp.so.*.*.*')")
  check "libcafmcp.so's SONAME is libcafmcp.so.0.1" sh -c "objdump -p '$lib/libcafmcp.so' | grep -q 'SONAME *libcafmcp.so.0.1$'"
  check "libcafmcp_http.so links libcafmcp.so.0.1" sh -c "objdump -p '$lib/libcafmcp_http.so' | grep -q 'NEEDED *libcafmcp.so.0.1$'"
  configure_consumer "$work/build" -DCONSUMER_MODE=find_package -DCMAKE_PREFIX_PATH="$work/prefix" -Dcafmcp_SHARED_LIBS=ON
  step "$CMAKE" --build "$work/build" -j 1
  check "the consumer links the shared libraries" sh -c "objdump -p '$work/build/consumer' | grep -q 'NEEDED *libcafmcp_http.so.0.1$'"
  run_consumer "$work/build"
  # One package with both flavours: the static build tree and this one.
  step "$CPACK" -G DEB --config "$build/CPackConfig.cmake" -B "$work/packages" \
    -D "CPACK_INSTALL_CMAKE_PROJECTS=$build;cafmcp;ALL;/;$dir;cafmcp;ALL;/"
  for d in "$work"/packages/*.deb; do step dpkg -x "$d" "$work/root"; done
  check "the runtime package holds libcafmcp.so.0.1" sh -c "dpkg-deb -c '$work'/packages/libcafmcp0.1_*.deb | grep -q 'libcafmcp.so.0.1 '"
  configure_consumer "$work/build-static" -DCONSUMER_MODE=find_package -DCMAKE_PREFIX_PATH="$work/root/usr"
  check "without a choice the package's consumer gets the static libraries" grep -q "(static) from $work/root/usr/lib" "$log"
  ;;
*)
  echo "run.sh: unknown mode '$mode'" >&2
  exit 2
  ;;
esac
echo "install test '$mode': passed"
