#!/usr/bin/env bash
# Everything that needs an NVIDIA GPU, in one run, on any machine with a GPU and the CUDA
# toolkit, from a checkout (run it from the repository root):
#
#   bash bench/gpu_run.sh [LOG_DIR]
#
# It builds with the default preset unless a build is already there, then runs every GPU
# test, every reference solution and stub on the GPU, the broken-kernel corpus under
# --backend=auto, the comparison of the memory profile with Nsight Compute, and the speed
# benchmark against cuBLAS (a run folder in docs/dev/runs/, see docs/dev/figures.md). Logs go to LOG_DIR (default build/gpu-run); the summary is
# printed last.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
logs="${1:-build/gpu-run}"
build=build/default
mkdir -p "$logs"
export NO_COLOR=1

# A build made elsewhere and carried here must have the kernels' GPU images, which a
# configure where no GPU is listed leaves out (PUZZLES_GPU_IMAGES): build it with
# `cmake --preset default -DPUZZLES_GPU_IMAGES=ON`.
if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^PUZZLES_GPU_IMAGES:BOOL=ON$' "$build/CMakeCache.txt"; then
  echo "$build was configured without the kernels' GPU images; configure it with -DPUZZLES_GPU_IMAGES=ON."
  exit 2
fi
if [ ! -x "$build/tests/engine_tests" ]; then
  cmake --preset default -DPUZZLES_GPU_IMAGES=ON > "$logs/configure.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" > "$logs/build.log" 2>&1 || {
    tail -40 "$logs/build.log" "$logs/configure.log" 2>/dev/null
    echo "The build failed (logs in $logs)."
    exit 2
  }
fi

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
  echo "compute-sanitizer: $(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)"
  echo "ncu: $(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)"
} > "$logs/device.txt" 2>&1

ctest --test-dir "$build" -R 'gpu:' --output-on-failure -j 4 > "$logs/gpu-tests.log" 2>&1
tests_status=$?

for spec in checker/specs/p*.json; do
  id="$(basename "$spec" .json)"
  for variant in solution stub; do
    echo "== $id ($variant)"
    "$build/test-bin/${id}_${variant}" --backend=gpu
    echo "exit status: $?"
  done
done > "$logs/checkers-gpu.log" 2>&1

for kernel in "$build"/test-bin/broken_*; do
  echo "== $(basename "$kernel")"
  "$kernel" --backend=auto
  echo "exit status: $?"
done > "$logs/broken-auto.log" 2>&1

# The run folder goes to docs/dev/runs/ (docs/dev/figures.md): commit it, then checker/run docs --update.
checker/run bench > "$logs/bench.log" 2>&1
bench_status=$?

echo "== device"; cat "$logs/device.txt"
echo "== GPU tests (exit status $tests_status)"
grep -E 'tests passed|\*\*\*Failed|Failed  ' "$logs/gpu-tests.log" | tail -30
echo "== checkers on the GPU"
grep -E '^(== |Result|exit status)' "$logs/checkers-gpu.log"
echo "== broken kernels under auto"
grep -cE '^exit status: 1$' "$logs/broken-auto.log" | sed 's/^/kernels that failed as they should: /'
grep -B1 -E '^exit status: [^1]' "$logs/broken-auto.log" || true
echo "== benchmark (exit status $bench_status)"
tail -60 "$logs/bench.log"
