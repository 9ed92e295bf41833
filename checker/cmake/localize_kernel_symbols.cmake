cmake_minimum_required(VERSION 3.25)
# Run after a kernel library's archive is made (cmake -P, see KernelTargets.cmake):
# renames every symbol that the archive defines for the whole program, except its exports
# (kernels::<namespace>::cpu_<kernel>() and gpu_<kernel>()), by appending SUFFIX. A kernel
# file is compiled at global scope, as nvcc compiles it, so two kernel files (or the CPU
# and GPU builds of one) define the same names, and inline functions of the headers they
# include; renamed, each library keeps its own and the program links. The suffix after a
# '.' reads as a clone in demangled names: "matmul_tiled(...) [clone .cpu_p04_tiled]".
# Functions' local statics (_ZZ...) are renamed too, local symbols as they often are: the
# suffix tells the CPU backend which library a __shared__ variable's symbol belongs to, where
# the debug information gives no location for it (aarch64: shared_layout.cpp).
#   -DARCHIVE=<lib.a> -DSUFFIX=<text> -DNM=<nm> -DOBJCOPY=<objcopy>
foreach(var ARCHIVE SUFFIX NM OBJCOPY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "localize_kernel_symbols.cmake needs -D${var}=...")
  endif()
endforeach()
execute_process(COMMAND "${NM}" --defined-only --format=posix "${ARCHIVE}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE failed ERROR_VARIABLE errors)
if(failed)
  message(FATAL_ERROR "${NM} could not read ${ARCHIVE}: ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(renamed "")
foreach(line IN LISTS lines)
  # "name type value size", the type in capitals for a global symbol (or u, a unique global);
  # archive member headers end with ':'.
  if(line MATCHES "^([^ ]+) ([A-Za-z]) ")
    set(name "${CMAKE_MATCH_1}")
    set(type "${CMAKE_MATCH_2}")
    string(TOUPPER "${type}" global_type)
    set(global OFF)
    if(type STREQUAL global_type OR type STREQUAL "u")
      set(global ON)
    endif()
    if(global AND NOT name MATCHES "^_ZN7kernels")
      list(APPEND renamed "${name}")
    elseif(NOT global AND name MATCHES "^_ZZ")
      list(APPEND renamed "${name}")
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES renamed)
set(map "")
foreach(name IN LISTS renamed)
  string(APPEND map "${name} ${name}.${SUFFIX}\n")
endforeach()
set(map_file "${ARCHIVE}.symbols")
file(WRITE "${map_file}" "${map}")
execute_process(COMMAND "${OBJCOPY}" "--redefine-syms=${map_file}" "${ARCHIVE}"
                RESULT_VARIABLE failed ERROR_VARIABLE errors)
if(failed)
  message(FATAL_ERROR "${OBJCOPY} could not rename the symbols of ${ARCHIVE}: ${errors}")
endif()
