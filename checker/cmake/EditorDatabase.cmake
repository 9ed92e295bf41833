# The compilation database editors read (clangd): CMake's own entries (the engine, the checker
# library, the tests) and one entry per kernel file, puzzles/*.cu, solutions/*.cu and
# tests/broken/*.cu included, compiled as the CPU backend compiles them: as C++, after the
# shim, against the compat headers (KernelTargets.cmake). Without those entries clangd knows
# neither threadIdx nor __shared__ in a puzzle file.
#
# The build writes <build>/editor/compile_commands.json (merge_editor_database.cmake), and
# configuring a tree directly under build/ links build/compile_commands.json to it: clangd
# looks for build/compile_commands.json in every folder above a file, so the link serves the
# whole course and keeps the course's top folder free of generated files.
# .clangd says what clangd must not check in a kernel file (the constraints of inline PTX).
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

set(EDITOR_DATABASE_DIR "${CMAKE_BINARY_DIR}/editor")
set(_editor_kernels "${EDITOR_DATABASE_DIR}/kernels.json")

# Called by add_kernel_library for each kernel file with its CPU compile flags. A file built
# twice (bench/ builds solutions without instrumentation too) keeps its first flags, the
# checkers'; the first flags of all serve the files this tree does not build.
function(editor_database_add_kernel source)
  get_property(known GLOBAL PROPERTY "EDITOR_KERNEL_FLAGS_${source}" SET)
  if(known)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY EDITOR_KERNEL_SOURCES "${source}")
  set_property(GLOBAL PROPERTY "EDITOR_KERNEL_FLAGS_${source}" "${ARGN}")
  get_property(have_default GLOBAL PROPERTY EDITOR_KERNEL_DEFAULT_FLAGS SET)
  if(NOT have_default)
    set_property(GLOBAL PROPERTY EDITOR_KERNEL_DEFAULT_FLAGS "${ARGN}")
  endif()
endfunction()

function(_editor_json_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# At the end of the top directory, once every add_kernel_library has run.
function(_editor_database_write)
  get_property(sources GLOBAL PROPERTY EDITOR_KERNEL_SOURCES)
  get_property(default_flags GLOBAL PROPERTY EDITOR_KERNEL_DEFAULT_FLAGS)
  # The kernel files a student or an instructor opens, built by this tree or not (a stub in an
  # instructor build, a broken kernel's change): the flags every kernel gets. A file added
  # later gets its entry at the next configure, not at the next build: checking at every build
  # would cost each build a cmake process, and a folder's time would change with every editor's
  # swap file in puzzles/. Until then clangd gives the file the command of its neighbour in the
  # same folder, whose flags are the same.
  file(GLOB course_kernels "${PROJECT_SOURCE_DIR}/puzzles/*.cu" "${PROJECT_SOURCE_DIR}/solutions/*.cu"
       "${PROJECT_SOURCE_DIR}/tests/broken/*.cu")
  list(APPEND sources ${course_kernels})
  list(REMOVE_DUPLICATES sources)
  list(SORT sources)
  cmake_path(SET include NORMALIZE "${KERNEL_TARGETS_DIR}/../engine/include")
  cmake_path(NORMAL_PATH include)
  set(entries "")
  foreach(source IN LISTS sources)
    get_property(flags GLOBAL PROPERTY "EDITOR_KERNEL_FLAGS_${source}")
    if(NOT flags)
      set(flags ${default_flags})
    endif()
    # -mllvm options tune the instrumentation pass, which an editor never runs.
    list(JOIN flags "\n" flat)
    string(REGEX REPLACE "-mllvm\n[^\n]*\n?" "" flat "${flat}")
    string(REPLACE "\n" ";" flags "${flat}")
    set(arguments "${CMAKE_CXX_COMPILER}" -x c++ -std=c++${CMAKE_CXX_STANDARD} ${flags}
                  "-I${include}/cuda_cpu/compat" "-I${include}" -include cuda_cpu/kernel_shim.h
                  -c "${source}")
    set(quoted "")
    foreach(argument IN LISTS arguments)
      _editor_json_string(json "${argument}")
      list(APPEND quoted "${json}")
    endforeach()
    list(JOIN quoted ", " quoted)
    _editor_json_string(directory "${PROJECT_SOURCE_DIR}")
    _editor_json_string(file "${source}")
    list(APPEND entries "{\"directory\": ${directory}, \"file\": ${file}, \"arguments\": [${quoted}]}")
  endforeach()
  list(JOIN entries ",\n" body)
  # CONFIGURE rewrites the file only when it changes: an unchanged one merges nothing again.
  file(CONFIGURE OUTPUT "${_editor_kernels}" CONTENT "[\n${body}\n]\n" @ONLY)

  add_custom_command(
    OUTPUT "${EDITOR_DATABASE_DIR}/compile_commands.json"
    COMMAND "${CMAKE_COMMAND}" "-DCMAKE_DATABASE=${CMAKE_BINARY_DIR}/compile_commands.json"
            "-DKERNELS=${_editor_kernels}" "-DOUTPUT=${EDITOR_DATABASE_DIR}/compile_commands.json"
            -P "${KERNEL_TARGETS_DIR}/merge_editor_database.cmake"
    DEPENDS "${CMAKE_BINARY_DIR}/compile_commands.json" "${_editor_kernels}"
            "${KERNEL_TARGETS_DIR}/merge_editor_database.cmake"
    COMMENT "Writing the editors' compilation database (editor/compile_commands.json)"
    VERBATIM)
  add_custom_target(editor_database ALL DEPENDS "${EDITOR_DATABASE_DIR}/compile_commands.json")
  # Every checker links the engine: building any puzzle brings the database up to date too.
  add_dependencies(engine editor_database)

  cmake_path(GET CMAKE_BINARY_DIR PARENT_PATH parent)
  if(parent STREQUAL "${PROJECT_SOURCE_DIR}/build")
    cmake_path(GET CMAKE_BINARY_DIR FILENAME tree)
    file(CREATE_LINK "${tree}/editor/compile_commands.json" "${parent}/compile_commands.json" SYMBOLIC)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _editor_database_write)
