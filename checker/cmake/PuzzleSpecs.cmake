# Reads the puzzle specs (checker/specs/*.json, one per puzzle; docs/dev/spec.md) once, for
# the whole build:
#   PUZZLE_IDS                 every puzzle, in order of number
#   PUZZLE_<id>_KERNELS        the kernels it asks for ("matmul_tiled", "matmul_warp_tiled<BM, BN>")
#   PUZZLE_<id>_SIGNATURE      their parameter list, as a C++ function type
#   PUZZLE_<id>_MIN_ARCH       the oldest GPU architecture its kernels build for (80, 90a),
#                              from "requires_gpu": "sm_80"; empty when any will do
# and writes embedded_specs.cpp, which puts the spec texts into the checker library.
set(PUZZLE_SPEC_DIR "${PROJECT_SOURCE_DIR}/checker/specs")
# A spec added or removed changes the folder's time, which re-runs the configure step: a
# dependency that costs the build a file's time, where CONFIGURE_DEPENDS costs every build a
# cmake process (a twentieth of a second, in the student's edit -> verdict loop).
file(GLOB puzzle_spec_files "${PUZZLE_SPEC_DIR}/p*.json")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PUZZLE_SPEC_DIR}")
list(SORT puzzle_spec_files)

set(PUZZLE_IDS "")
set(embedded "")
foreach(spec_file IN LISTS puzzle_spec_files)
  # An edited spec changes targets, so it re-runs the configure step.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec_file}")
  file(READ "${spec_file}" text)
  get_filename_component(file_id "${spec_file}" NAME_WE)
  string(JSON id ERROR_VARIABLE error GET "${text}" id)
  if(error)
    message(FATAL_ERROR "${spec_file}: ${error}")
  endif()
  if(NOT id STREQUAL file_id)
    message(FATAL_ERROR "${spec_file}: its id is '${id}'; a spec file is named after its puzzle's id")
  endif()
  string(JSON signature ERROR_VARIABLE error GET "${text}" signature)
  string(JSON kernel_count ERROR_VARIABLE error LENGTH "${text}" kernels)
  if(error OR kernel_count EQUAL 0)
    message(FATAL_ERROR "${spec_file}: needs a signature and a list of kernels")
  endif()
  set(kernels "")
  math(EXPR last "${kernel_count} - 1")
  foreach(i RANGE ${last})
    string(JSON kernel GET "${text}" kernels ${i})
    list(APPEND kernels "${kernel}")
  endforeach()
  string(JSON requires_gpu ERROR_VARIABLE no_requirement GET "${text}" requires_gpu)
  set(min_arch "")
  if(NOT no_requirement)
    if(NOT requires_gpu MATCHES "^sm_([0-9]+a?)$")
      message(FATAL_ERROR "${spec_file}: requires_gpu is '${requires_gpu}'; write sm_80, sm_90a, ...")
    endif()
    set(min_arch "${CMAKE_MATCH_1}")
  endif()
  list(APPEND PUZZLE_IDS "${id}")
  set(PUZZLE_${id}_MIN_ARCH "${min_arch}")
  set(PUZZLE_${id}_KERNELS "${kernels}")
  set(PUZZLE_${id}_SIGNATURE "${signature}")
  string(APPEND embedded "    {\"${id}.json\", R\"puzzle_spec(${text})puzzle_spec\"},\n")
endforeach()
if(NOT PUZZLE_IDS)
  message(FATAL_ERROR "no puzzle specs found in ${PUZZLE_SPEC_DIR}")
endif()

set(PUZZLE_SPECS_GENERATED_DIR "${PROJECT_BINARY_DIR}/generated/specs")
set(EMBEDDED_SPECS "${embedded}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/embedded_specs.cpp.in" "${PUZZLE_SPECS_GENERATED_DIR}/embedded_specs.cpp" @ONLY)
