#!/usr/bin/env bash
# Run here, after `cmake --build build/default`: packs what the GPU run needs into
# .device/ (ignored by git), for the device tool's `carry`. The device machine has CUDA
# but none of the Debian packages, so binaries built here travel with Boost.Context.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=build/default
[ -x "$build/tests/engine_tests" ] || { echo "build $build first" >&2; exit 2; }
rm -rf .device && mkdir -p .device/stage
# Executables without debug sections (the symbol table stays: the CPU backend needs it).
tar -C . -cf - \
  $build/CTestTestfile.cmake $build/tests/*.cmake \
  $build/tests/engine_tests $build/tests/checker_tests $build/test-bin $build/bin \
  | tar -C .device/stage -xf -
find .device/stage -type f -perm -u+x -exec strip --strip-debug {} +
cp /usr/lib/x86_64-linux-gnu/libboost_context.so.1.74.0 .device/stage/
tar -C .device/stage -cJf .device/gpu-run.tar.xz .
rm -rf .device/stage
du -h .device/gpu-run.tar.xz
