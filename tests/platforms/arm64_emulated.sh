#!/usr/bin/env bash
# The course on 64-bit Arm Linux (aarch64: Docker Desktop on Apple Silicon, Graviton, ...),
# proven on an x86-64 Debian 12 machine by emulation. It cross-builds with clang for
# aarch64-linux-gnu against Debian's arm64 multiarch packages (the arm64 preset and
# checker/cmake/toolchains/aarch64-linux-gnu.cmake) into build/arm64, and runs under
# qemu-user (qemu-aarch64 -L /, no binfmt registration needed):
#   - the engine's tests (engine_tests, through CTest: the GPU cases skip as they do without a GPU),
#   - every puzzle's solution checker (--backend=cpu, as a student runs it; --all-orders
#     takes many minutes a puzzle under qemu), which must pass,
#   - every puzzle's stub checker (--backend=cpu), which must fail cleanly (exit 1).
# It prints the counts and the time, and exits non-zero if anything failed.
#
# Run it as root (it installs Debian packages and adds the arm64 architecture to dpkg):
#   tests/platforms/arm64_emulated.sh
# or through CTest, configured with -DPUZZLES_PLATFORM_TESTS=ON: ctest -L arm64.
# It takes many minutes (on 2 busy cores: about 30 for the first cross build, then about 20 for
# the tests and checkers under qemu): it is not part of the default test run. JOBS (default: the number of cores) sets the build's
# parallelism.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
start=$SECONDS
jobs="${JOBS:-$(nproc)}"

if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: the arm64 test installs Debian packages; run it as root"
  exit 77
fi

# --- Packages: the arm64 libraries the build links, lld, qemu-user. ------------------------------
packages=(lld qemu-user libc6-dev:arm64 libstdc++-12-dev:arm64 libgcc-12-dev:arm64
          libboost-context-dev:arm64 libdw-dev:arm64 zlib1g-dev:arm64)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]}"
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then dpkg --add-architecture arm64; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- The build: ptx_rewrite for this machine, then everything the proof runs for arm64. ---------
cmake --preset host-tools >/dev/null
cmake --build --preset host-tools -j "$jobs"
cmake --preset arm64 >/dev/null
puzzles=()
for stub in puzzles/p*.cu; do
  id=$(basename "$stub" .cu)
  [ -f "solutions/$id.cu" ] && puzzles+=("$id")
done
targets=(engine_tests)
for id in "${puzzles[@]}"; do targets+=("${id}_stub" "${id}_solution"); done
build_start=$SECONDS
cmake --build build/arm64 -j "$jobs" --target "${targets[@]}"
build_seconds=$((SECONDS - build_start))

# qemu-user (Debian 12's 7.2) spends time on every page a program reserves, and runs kernels
# tens of times slower than an arm64 machine would: the engine reserves 16 buffer slots
# instead of 256 (64 GiB of address space instead of 1 TiB), and its time limits stretch.
export PUZZLES_CPU_BUFFER_SLOTS=16 PUZZLES_TIME_LIMIT_SCALE=20
run() { qemu-aarch64 -L / "$@"; }

# --- The engine's tests, one CTest test per test case, as in the native run. ---------------------
tests_start=$SECONDS
engine_status=0
ctest --test-dir build/arm64 -R '^engine:' -j "$jobs" --output-on-failure --timeout 900 \
  > build/arm64/engine_tests.log 2>&1 || engine_status=$?
engine_summary=$(grep -E '^[0-9]+% tests passed' build/arm64/engine_tests.log) || {
  engine_summary="no tests ran"
  engine_status=1
}
grep -E '^\s*[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Exception|Not Run)' build/arm64/engine_tests.log || true
engine_seconds=$((SECONDS - tests_start))

# --- Every checker: solutions pass, stubs fail cleanly. ------------------------------------------
checkers_start=$SECONDS
solutions_passed=0 stubs_failed=0 problems=0
for id in "${puzzles[@]}"; do
  status=0
  output=$(run "build/arm64/test-bin/${id}_solution" --backend=cpu 2>&1) || status=$?
  if [ $status = 0 ] && grep -q PASS <<<"$output"; then
    solutions_passed=$((solutions_passed + 1))
  else
    problems=$((problems + 1))
    echo "FAIL: ${id}_solution exited $status (expected 0 and PASS):"
    tail -n 40 <<<"$output"
  fi
  status=0
  output=$(run "build/arm64/test-bin/${id}_stub" --backend=cpu 2>&1) || status=$?
  if [ $status = 1 ] && grep -q "Result: 0 of" <<<"$output" && ! grep -q "Crash" <<<"$output"; then
    stubs_failed=$((stubs_failed + 1))
  else
    problems=$((problems + 1))
    echo "FAIL: ${id}_stub exited $status (expected 1, a clean FAIL with no crash):"
    tail -n 40 <<<"$output"
  fi
done
checkers_seconds=$((SECONDS - checkers_start))

echo
echo "arm64 under qemu-aarch64 ($(qemu-aarch64 --version | head -n 1)):"
echo "  engine tests:     $engine_summary ($((engine_seconds / 60)) min $((engine_seconds % 60)) s)"
echo "  solutions:        $solutions_passed of ${#puzzles[@]} pass"
echo "  stubs:            $stubs_failed of ${#puzzles[@]} fail cleanly ($((checkers_seconds / 60)) min $((checkers_seconds % 60)) s for both)"
echo "  cross build:      $((build_seconds / 60)) min $((build_seconds % 60)) s with $jobs jobs"
total=$((SECONDS - start))
echo "  total:            $((total / 60)) min $((total % 60)) s"
if [ $engine_status != 0 ] || [ $problems != 0 ]; then
  echo "FAIL"
  exit 1
fi
echo "PASS"
