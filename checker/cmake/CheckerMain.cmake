# write_checker_main(<file> PUZZLE <id> [CONSTANTS <NAME=VALUE>...])
# Writes the main of a checker of puzzle <id>: checker::puzzle_main() with the images of the
# kernels its spec names (PuzzleSpecs.cmake), declared as every kernel library of a puzzle
# exports them (add_kernel_library ... NAMESPACE puzzle). It depends on the puzzle alone, and
# on a tuning variant's constants, never on the file a checker checks: one compiled main
# serves a puzzle's checker, its stub's, its solution's and its broken kernels'
# (checker/CMakeLists.txt), and a grading template compiles it before any submission
# (checker/grading).
function(write_checker_main file)
  cmake_parse_arguments(ARG "" "PUZZLE" "CONSTANTS" ${ARGN})
  set(PUZZLE "${ARG_PUZZLE}")
  set(DECLARATIONS "")
  set(CPU_IMAGES "")
  set(GPU_IMAGES "")
  foreach(kernel IN LISTS PUZZLE_${PUZZLE}_KERNELS)
    string(REGEX REPLACE "[ \t]*<.*$" "" name "${kernel}")
    string(APPEND DECLARATIONS "const engine::KernelImage& cpu_${name}();\nconst engine::KernelImage& gpu_${name}();\n")
    string(APPEND CPU_IMAGES "&kernels::puzzle::cpu_${name}(), ")
    string(APPEND GPU_IMAGES "&kernels::puzzle::gpu_${name}(), ")
  endforeach()
  # CONSTANTS="BK=16;STAGES=3" (checker/run tune): the checker uses these values of the spec's
  # constants, which the variant defines so, in its launch formulas, budgets and words.
  set(CONSTANT_OVERRIDES "")
  foreach(pair IN LISTS ARG_CONSTANTS)
    if(NOT pair MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=([0-9]+)$")
      message(FATAL_ERROR "CONSTANTS: '${pair}' is not NAME=VALUE (a whole number)")
    endif()
    string(APPEND CONSTANT_OVERRIDES "{\"${CMAKE_MATCH_1}\", ${CMAKE_MATCH_2}LL}, ")
  endforeach()
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/checker_main.cpp.in" "${file}" @ONLY)
endfunction()
