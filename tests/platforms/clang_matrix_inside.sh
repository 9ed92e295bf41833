#!/usr/bin/env bash
# The clang matrix's second half (clang_matrix.sh runs it in the private namespaces).
#
#   clang_matrix_inside.sh ROOT LOG_DIR RELEASE "MAJORS"
set -euo pipefail
root="${1:?root}"
log_dir="${2:?log folder}"
release="${3:?release}"
majors="${4:-}"
name=clang-matrix
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { printf '%s: %s\n' "$name" "$*" >&2; }
# shellcheck source=debian_root_inside.sh
. "$here/debian_root_inside.sh"
course=/srv/course

say "installing the course's core packages"
run_in_root "$course" "apt-get update -qq && checker/install-packages core" >"$log_dir/install.log" 2>&1 ||
  { tail -20 "$log_dir/install.log" >&2; say "the course's packages did not install"; exit 1; }
if [ -z "$majors" ]; then
  majors="$(run_in_root / "apt-cache search --names-only '^clang-[0-9]+\$'" | sed -E 's/^clang-([0-9]+) .*/\1/' | sort -n | paste -sd ' ')"
fi
say "clang majors: $majors"

failed=0
for n in $majors; do
  log="$log_dir/clang-$n"
  mkdir -p "$log"
  start=$(date +%s)
  if ! run_in_root "$course" "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-$n llvm-$n-dev" >"$log/install.log" 2>&1; then
    say "clang-$n: not installable here (see $log/install.log)"
    echo "{\"major\": $n, \"installed\": false}" >"$log/result.json"
    failed=1
    continue
  fi
  build="build/clang-$n"
  # Configure and build what the two tests run: every stub, solution and broken kernel's checker.
  status=0
  models_status=1
  run_in_root "$course" "cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-$n \
      -DPUZZLES_ENABLE_CUDA=OFF && cmake --build $build --target corpus_tests checker_tests canaries_not_instrumented_kernels_cpu" \
      >"$log/build.log" 2>&1 || status=$?
  if [ "$status" = 0 ]; then
    run_in_root "$course" "$build/tests/corpus_tests -tc='cpu: every broken kernel in the corpus produces its finding' -r=xml" \
      >"$log/broken.xml" 2>"$log/broken.stderr" || true
    run_in_root "$course" "$build/tests/checker_tests -tc='cpu: every reference solution passes*' -r=xml" \
      >"$log/solutions.xml" 2>"$log/solutions.stderr" || true
    # The block-loop pass, built against this clang's LLVM: which puzzles run as loops, which code
    # has the inline checks, both execution models printing the same, the checks it puts inline printing what the
    # callbacks alone print, the lanes of a warp in step at volatile accesses, a thread's
    # invariant values computed again after its barriers, not kept in its frame, and the reads of
    # the first puzzles' inner loops checked ahead of the loop (tests/models).
    models_status=0
    run_in_root "$course" "MODEL_BUILD_DIR=$build python3 tests/models/test_execution_models.py \
        ExecutionModels.test_the_puzzles_that_wait_only_at_barriers_run_as_loops \
        ExecutionModels.test_the_code_that_runs_as_loops_has_the_inline_checks_and_the_fiber_copy_the_callbacks \
        ExecutionModels.test_every_checker_compiled_as_loops_prints_what_it_prints_on_fibers \
        ExecutionModels.test_every_checker_prints_the_same_with_its_checks_inline_as_with_the_callbacks_alone \
        ExecutionModels.test_warp_synchronous_code_through_volatile_stays_on_fibers_and_keeps_lanes_in_step \
        ExecutionModels.test_values_a_thread_computes_the_same_after_each_barrier_are_computed_again_not_kept \
        ExecutionModels.test_the_inner_loops_of_the_first_puzzles_check_their_reads_ahead" \
      >"$log/models.log" 2>&1 || models_status=$?
    # And the pass's last step, which reads this LLVM's own form of debug information (intrinsics,
    # or from LLVM 19 records): no location lists of local variables in instrumented kernel
    # objects, the __shared__ variables' locations kept, a plain object's lists still there.
    objects="$build/tests/CMakeFiles/%s_cpu.dir/kernels/%s/cpu_ptx.cpp.o"
    run_in_root "$course" "python3 tests/setup/test_variable_locations.py \
        --plain $build/tests/canaries/CMakeFiles/canaries_not_instrumented_kernels_cpu.dir/kernels/canaries_not_instrumented_kernels/cpu_ptx.cpp.o \
        --instrumented $(printf "$objects " p04_tiled_solution_kernel p04_tiled_solution_kernel \
                                           p10_warp_tiling_solution_kernel p10_warp_tiling_solution_kernel) \
        --shared a_tile b_tile" >>"$log/models.log" 2>&1 || models_status=$?
    # The build's own shortcuts with this clang: links that run the linker without the driver give the
    # driver's bytes, and instrumented kernel objects are the same with the older tracker of
    # variable locations, where this clang has the option (tests/setup).
    if run_in_root "$course" "test -x $build/checker/engine/direct_link"; then
      run_in_root "$course" "python3 tests/setup/test_direct_link.py --build $build --tool $course/$build/checker/engine/direct_link \
          test-bin/p04_tiled_solution test-bin/broken_p12_producer_parity" >>"$log/models.log" 2>&1 || models_status=$?
    fi
    # A whole program compiled as nvcc's two passes, joined and linked by this release's linker
    # (mold, else lld): the device pass's code in kernels, the host pass's constructors run once.
    for method in test_code_kept_for_the_device_pass_runs_in_kernels test_launch_forms_headers_and_runtime_queries; do
      run_in_root "$course" "PROGRAM_BUILD_DIR=$course/$build python3 tests/programs/test_programs.py $method" \
        >>"$log/models.log" 2>&1 || models_status=$?
    done
    if run_in_root "$course" "grep -q '^PUZZLES_HAVE_VARIABLE_TRACKER_CHOICE:INTERNAL=1' $build/CMakeCache.txt"; then
      run_in_root "$course" "python3 tests/setup/test_debug_value_tracker.py --build $build \
          test-bin/p10_warp_tiling_solution test-bin/p12_tma_wgmma_solution test-bin/broken_p02_missing_barrier" \
          >>"$log/models.log" 2>&1 || models_status=$?
    fi
  fi
  python3 "$here/clang_matrix_summary.py" --major "$n" --build-status "$status" --models-status "${models_status:-1}" \
    --version "$(run_in_root / "clang++-$n --version | head -1")" --seconds $(( $(date +%s) - start )) \
    --broken-dir "$root$course/tests/broken" --log "$log" >"$log/result.json" || failed=1
  python3 "$here/clang_matrix_summary.py" --line "$log/result.json" >&2
done
python3 "$here/clang_matrix_summary.py" --release "$release" --combine "$log_dir"/clang-*/result.json | tee "$log_dir/matrix.json" >/dev/null
exit "$failed"
