#!/usr/bin/env bash
# Run on the lent GPU machine (device tool), from the repository root, with .device carried:
#   bash bench/device/gpu_suite.sh
# Unpacks the build made here (pack.sh), runs every GPU test, the checkers on the GPU and
# the benchmark against cuBLAS. Logs go to $OUT; the summary is printed last.
set -uo pipefail
root=$(pwd)
out=${OUT:-/tmp/out}
mkdir -p "$out"
tar -C "$root" -xJf .device/gpu-run.tar.xz
# CTest files name the build by the path it had here.
mkdir -p /work && [ -e /work/main ] || ln -s "$root" /work/main
export LD_LIBRARY_PATH="$root:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export NO_COLOR=1
bin=$root/build/default/bin
tb=$root/build/default/test-bin

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
  command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer
} > "$out/device.txt" 2>&1

ctest --test-dir build/default -R 'gpu:' --output-on-failure > "$out/gpu-tests.log" 2>&1
tests_status=$?

for id in p01_naive p02_single_row_shared p03_row_col_shared p04_tiled p05_single_block_aat; do
  "$tb/${id}_solution" --backend=gpu; echo "exit status: $?"
  "$tb/${id}_stub" --backend=gpu; echo "exit status: $?"
done > "$out/checkers-gpu.log" 2>&1

{
  "$tb/broken_p05_missing_guard" --backend=gpu; echo "exit status: $?"
  "$tb/broken_p05_bad_pointer" --backend=gpu; echo "exit status: $?"
  "$tb/broken_p05_missing_guard" --sanitize; echo "exit status: $?"
  "$tb/broken_p04_missing_first_barrier" --sanitize; echo "exit status: $?"
  "$tb/broken_p05_barrier_in_if" --sanitize; echo "exit status: $?"
} > "$out/findings-gpu.log" 2>&1
# compute-sanitizer's own words, to keep the summaries honest.
compute-sanitizer --tool racecheck "$tb/broken_p04_missing_first_barrier" --backend=gpu --quick --no-canaries \
  > "$out/racecheck-raw.log" 2>&1
compute-sanitizer --tool synccheck "$tb/broken_p05_barrier_in_if" --backend=gpu --quick --no-canaries \
  > "$out/synccheck-raw.log" 2>&1

"$bin/gpu_bench" 10 > "$out/gpu-bench.txt" 2>&1
bench_status=$?
"$bin/cpu_engine_bench" 5 > "$out/cpu-bench-device.txt" 2>&1

echo "== device"; cat "$out/device.txt"
echo "== GPU tests (status $tests_status)"; grep -E 'tests passed|Skipped|Failed|\*\*\*' "$out/gpu-tests.log" | tail -30
echo "== checkers on the GPU"; grep -E '^(Puzzle|Result|exit status)' "$out/checkers-gpu.log"
echo "== findings on the GPU"; grep -E 'Out-of-bounds|Crash|memcheck|racecheck|synccheck|  - |Result|exit status' "$out/findings-gpu.log" | cut -c1-220
echo "== GPU benchmark (status $bench_status)"; cat "$out/gpu-bench.txt"
echo "== CPU engine benchmark on the device's CPU"; cat "$out/cpu-bench-device.txt"
