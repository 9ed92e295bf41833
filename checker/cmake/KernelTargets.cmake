# add_kernel_library(<name> SOURCE <file.cu> KERNELS <kernel>... [NAMESPACE <ns>]
#                    [SIGNATURE <function type>] [MIN_ARCH <80|90a|...>] [CPU_ONLY] [NOT_INSTRUMENTED])
#
# Compiles one CUDA source for every backend of this build, unchanged: for the CPU backend
# with the host compiler (instrumented when it is clang), and with nvcc when CUDA is on.
# Host code includes the generated "<name>_kernels.h" and calls
# kernels::<ns>::cpu_<kernel>() and kernels::<ns>::gpu_<kernel>() for the images.
# A kernel may be a template instantiation, "matmul_warp_tiled<BM, BN>", whose arguments
# the source defines; it is then exported under the name before '<' (matmul_warp_tiled).
# SIGNATURE (the same for every kernel) turns a changed parameter list into a clear
# compile error. MIN_ARCH: the oldest GPU architecture the kernels can be built for (80 for
# mma.sync, ldmatrix and cp.async; 90a for Hopper's wgmma and setmaxnreg): the GPU build
# keeps only the build's architectures that reach it, and where none does, the kernels get
# no GPU build and run on the CPU backend. Without GPU images (PUZZLES_GPU_IMAGES OFF: no GPU
# listed), the GPU build is add_nvcc_check's compile of the device code alone. CPU_ONLY: for
# kernels that nvcc rightly refuses (tests of the CPU backend's limits). NOT_INSTRUMENTED: no load/store checks, for
# measuring the engine.
set(KERNEL_TARGETS_DIR "${CMAKE_CURRENT_LIST_DIR}")
# The preprocessing step below calls the compiler itself: cross-compiling, it must see the
# target's headers and macros, as the compile step does.
set(KERNEL_TARGET_FLAGS "")
if(CMAKE_CXX_COMPILER_TARGET)
  list(APPEND KERNEL_TARGET_FLAGS "${CMAKE_CXX_COMPILE_OPTIONS_TARGET}${CMAKE_CXX_COMPILER_TARGET}")
endif()
if(CMAKE_SYSROOT)
  list(APPEND KERNEL_TARGET_FLAGS "${CMAKE_CXX_COMPILE_OPTIONS_SYSROOT}${CMAKE_SYSROOT}")
endif()

# Archives are indexed as they are written (ar's "s"), with no ranlib run after: one process
# less for each archive. This holds for every static library of the project that includes this
# file (the GPU build of a kernel file is one; its CPU build is an object, below).
foreach(language C CXX CUDA)
  set(CMAKE_${language}_ARCHIVE_CREATE "<CMAKE_AR> qcs <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_${language}_ARCHIVE_APPEND "<CMAKE_AR> qs <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_${language}_ARCHIVE_FINISH "")
endforeach()

# Instrumented kernels keep no locations of their local variables (the block-loop pass drops
# them: passes/variable_locations.h), but the code generator's default tracker of those
# locations since LLVM 14 (instruction referencing) still follows every register and stack
# slot through every block before it looks for a variable: a fifth of puzzle 10's code
# generation, 0.5 s of its compile, for nothing. The older tracker, which starts from the
# variables, gives the same object byte for byte (tests/setup/test_debug_value_tracker.py
# compares) in a twentieth of that time. Where the option is unknown, the compiler keeps its own.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag("-mllvm -experimental-debug-variable-locations=false" PUZZLES_HAVE_VARIABLE_TRACKER_CHOICE)
endif()

# The preprocessing step's own flags: it tells the kernel shim that ptx_rewrite runs next
# (cuda_cpu/kernel_shim.h: __noinline__ is left to it).
set(KERNEL_PREPROCESS_FLAGS -DCUDA_CPU_PTX_REWRITE_FOLLOWS)

# The kernel shim that every kernel file begins with, rewritten and compiled once per build
# into a precompiled header, which each kernel file is then compiled against
# (engine/tools/precompiled_prelude.h): the shim is most of a kernel file's compile time. Its
# macros are made alongside, for preprocessing each kernel file (_kernel_precompiled_prelude).
# Clang's builds (the instrumented CPU backend); a grading template makes it once for all the
# submissions built in its copies (checker/grading), a tree of one submission's own turns it off.
option(PUZZLES_PRECOMPILED_PRELUDE "Compile the kernel shim once per build, as a precompiled header (clang)" ON)

function(add_kernel_library name)
  cmake_parse_arguments(ARG "CPU_ONLY;NOT_INSTRUMENTED" "SOURCE;NAMESPACE;SIGNATURE;MIN_ARCH" "KERNELS" ${ARGN})
  set(with_gpu ${PUZZLES_HAVE_CUDA})
  if(ARG_CPU_ONLY)
    set(with_gpu OFF)
  endif()
  set(gpu_architectures "")
  if(with_gpu AND ARG_MIN_ARCH)
    _kernel_gpu_architectures(gpu_architectures "${ARG_MIN_ARCH}")
    if(NOT gpu_architectures)
      set(with_gpu OFF)
      message(STATUS "${name}: no GPU build (it needs sm_${ARG_MIN_ARCH}; this build targets "
                     "${CMAKE_CUDA_ARCHITECTURES} with nvcc ${CMAKE_CUDA_COMPILER_VERSION}): the CPU backend runs it")
    endif()
  endif()
  set(nvcc_check OFF)
  if(with_gpu AND NOT PUZZLES_GPU_IMAGES)
    set(with_gpu OFF)
    set(nvcc_check ON)
  endif()
  get_filename_component(SOURCE "${ARG_SOURCE}" ABSOLUTE)
  set(NAMESPACE "${ARG_NAMESPACE}")
  if(NOT NAMESPACE)
    string(MAKE_C_IDENTIFIER "${name}" NAMESPACE)
  endif()
  string(MAKE_C_IDENTIFIER "${name}" LIBRARY_ID)
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/kernels/${name}")

  set(CPU_EXPORTS "")
  set(GPU_EXPORTS "")
  set(DECLARATIONS "")
  set(instrument ${PUZZLES_INSTRUMENTED})
  if(ARG_NOT_INSTRUMENTED)
    set(instrument OFF)
  endif()
  if(instrument)
    set(instrumented true)
  else()
    set(instrumented false)
  endif()
  foreach(kernel IN LISTS ARG_KERNELS)
    string(REGEX REPLACE "[ \t]*<.*$" "" k "${kernel}")
    string(APPEND DECLARATIONS
      "const engine::KernelImage& cpu_${k}();\nconst engine::KernelImage& gpu_${k}();\n")
    string(APPEND CPU_EXPORTS
      "const engine::KernelImage& cpu_${k}() {\n"
      "  static const engine::KernelImage image = [] {\n"
      "    auto i = engine::make_cpu_image<&::${kernel}>(\"${k}\", ${instrumented}, \"${SOURCE}\");\n"
      "    if (dynamic_shared_declared) {\n"
      "      i.dynamic_shared = &dynamic_shared_storage;\n"
      "      i.dynamic_shared_capacity = CUDA_CPU_DYNAMIC_SHARED_BYTES;\n"
      "      i.dynamic_shared_name = dynamic_shared_name;\n"
      "      i.dynamic_shared_element = dynamic_shared_element;\n"
      "    }\n"
      "    return i;\n"
      "  }();\n"
      "  return image;\n"
      "}\n"
      "// Host code's cudaLaunchKernelEx finds the image by the kernel's address.\n"
      "[[maybe_unused]] static const bool registered_${k} = cuda_cpu::register_kernel_image(&cpu_${k}());\n")
    if(with_gpu)
      string(APPEND GPU_EXPORTS
        "const engine::KernelImage& gpu_${k}() {\n"
        "  static const engine::KernelImage image =\n"
        "      engine::make_gpu_image(\"${k}\", &::${kernel}, \"${SOURCE}\");\n"
        "  return image;\n"
        "}\n")
    else()
      string(APPEND CPU_EXPORTS
        "const engine::KernelImage& gpu_${k}() {\n"
        "  static const engine::KernelImage image = engine::absent_image(\"${k}\");\n"
        "  return image;\n"
        "}\n")
    endif()
    if(ARG_SIGNATURE)
      string(APPEND CPU_EXPORTS
        "namespace signature_check_${k} {\n"
        "static_assert(std::is_same<decltype(::${kernel}), ${ARG_SIGNATURE}>::value,\n"
        "              \"${k} must keep its parameters exactly as given: ${ARG_SIGNATURE}. \"\n"
        "              \"Change only the kernel's body. [signature-check ${k}]\");\n"
        "}\n")
    endif()
  endforeach()

  configure_file("${KERNEL_TARGETS_DIR}/kernels.h.in" "${gen}/${name}_kernels.h" @ONLY)
  configure_file("${KERNEL_TARGETS_DIR}/kernel_cpu.cpp.in" "${gen}/cpu.cpp" @ONLY)

  kernel_cpu_flags(cpu_flags "${instrument}")

  if(COMMAND editor_database_add_kernel)  # the course's build, not a grading build (EditorDatabase.cmake)
    editor_database_add_kernel("${SOURCE}" ${cpu_flags})
  endif()

  # The CPU build: the wrapper is preprocessed, its inline PTX rewritten into calls to the
  # engine (checker/engine/tools/ptx_rewrite.cpp; a template the backend cannot run stops
  # the build there, with its file and line), its __shared__ declarations made what C++
  # accepts and its extern __shared__ arrays bound to the storage, and the result compiled.
  set(preprocessed "${gen}/cpu.ii")
  # The ptx_rewrite that runs on this machine (checker/engine/CMakeLists.txt); a grading build
  # (checker/grading) has the instructor build's, imported as ptx_rewrite.
  set(rewrite ptx_rewrite_host)
  if(NOT TARGET ptx_rewrite_host)
    set(rewrite ptx_rewrite)
  endif()
  set(rewritten "${gen}/cpu_ptx.cpp")
  # Normalised: findings tell the engine's headers from the student's by their path (source_lines.cpp).
  cmake_path(SET engine_include NORMALIZE "${KERNEL_TARGETS_DIR}/../engine/include")
  set(prelude_target "")
  set(prelude_header "")
  set(prelude_option "")
  set(prelude_macros "")
  set(shim_option "")
  if(PUZZLES_PRECOMPILED_PRELUDE AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    _kernel_precompiled_prelude(prelude_target prelude_header prelude_macros "${instrument}" "${cpu_flags}" "${rewrite}"
                                "${engine_include}")
    if(prelude_macros)
      # The shim's macros alone: the kernel file's text is all that is preprocessed and rewritten.
      set(shim_option -include "${prelude_macros}")
    else()
      # The whole shim, preprocessed and rewritten, then left out (its text is the header's).
      set(prelude_option --prelude "${prelude_header}")
    endif()
  endif()
  # The compiler's depfile is ninja's as it is, its target named as build.ninja names the output
  # (relative to the top of the build) and its headers by their absolute paths: the step that
  # would make its paths relative (CMP0116) is a cmake process, a twentieth of a second, in every
  # kernel file's build.
  set(depfile_target "${rewritten}")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    file(RELATIVE_PATH depfile_target "${CMAKE_BINARY_DIR}" "${rewritten}")
  endif()
  cmake_policy(PUSH)
  cmake_policy(SET CMP0116 OLD)
  add_custom_command(
    OUTPUT "${rewritten}"
    COMMAND "${CMAKE_CXX_COMPILER}" ${KERNEL_TARGET_FLAGS} -E ${KERNEL_PREPROCESS_FLAGS} -std=c++${CMAKE_CXX_STANDARD} -O2 ${cpu_flags}
            "-I${engine_include}/cuda_cpu/compat" "-I${engine_include}" "-I${gen}" ${shim_option}
            -MD -MF "${preprocessed}.d" -MT "${depfile_target}" -o "${preprocessed}" "${gen}/cpu.cpp"
    COMMAND ${rewrite} ${prelude_option} "${preprocessed}" "${rewritten}"
    DEPENDS "${gen}/cpu.cpp" "${SOURCE}" ${rewrite} ${prelude_header} ${prelude_macros}
    DEPFILE "${preprocessed}.d"
    COMMENT "Preparing ${ARG_SOURCE} for the CPU backend"
    VERBATIM)
  cmake_policy(POP)

  # Two libraries, the CPU build and the GPU build of the file, each with its symbols renamed
  # apart as it is compiled (ptx_rewrite --localize-symbols, tools/localize_symbols.cpp): both
  # define the kernel's own names, and so does every other kernel file. The CPU build is its
  # one object, linked as it is: an archive of it would cost every edit and every graded
  # submission two more processes (the old archive's removal and ar) and take nothing out.
  add_library(${name}_cpu OBJECT "${rewritten}")
  kernel_codegen_flags(codegen_flags)
  set(compile_flags ${cpu_flags} ${codegen_flags})
  set_source_files_properties("${rewritten}" PROPERTIES COMPILE_OPTIONS "${compile_flags}")
  # Kernels that qualify also get an invoker that runs their threads as loops between barriers
  # (checker/engine/passes), where this build has the pass.
  get_property(block_loop_pass GLOBAL PROPERTY PUZZLES_BLOCK_LOOP_PASS)
  if(block_loop_pass)
    set_property(SOURCE "${rewritten}" APPEND PROPERTY COMPILE_OPTIONS "-fpass-plugin=${block_loop_pass}")
    set_property(SOURCE "${rewritten}" APPEND PROPERTY OBJECT_DEPENDS "${block_loop_pass}")
  endif()
  target_link_libraries(${name}_cpu PUBLIC engine)
  if(prelude_target)
    target_precompile_headers(${name}_cpu REUSE_FROM ${prelude_target})
  endif()
  _kernel_library_localize(${name}_cpu CXX "${rewrite}" cpu_${LIBRARY_ID})
  add_library(${name} INTERFACE)
  target_include_directories(${name} INTERFACE "${gen}")
  # An object library that another links through an interface library passes on its usage
  # requirements alone: its object is named here, for every target that links ${name}.
  target_link_libraries(${name} INTERFACE engine_headers ${name}_cpu)
  target_sources(${name} INTERFACE $<TARGET_OBJECTS:${name}_cpu>)
  if(with_gpu OR nvcc_check)
    configure_file("${KERNEL_TARGETS_DIR}/kernel_gpu.cu.in" "${gen}/gpu.cu" @ONLY)
  endif()
  if(nvcc_check)
    # The file nvcc would compile for the image, compiled for each architecture as a check.
    if(NOT gpu_architectures)
      set(gpu_architectures ${CMAKE_CUDA_ARCHITECTURES})
    endif()
    add_nvcc_check(${name} SOURCE "${gen}/gpu.cu" ARCHITECTURES ${gpu_architectures}
                   INCLUDES "${engine_include}" DEPENDS "${SOURCE}")
  endif()
  if(with_gpu)
    add_library(${name}_gpu STATIC "${gen}/gpu.cu")
    set_source_files_properties("${gen}/gpu.cu" PROPERTIES OBJECT_DEPENDS "${SOURCE}" COMPILE_OPTIONS "-lineinfo")
    if(gpu_architectures MATCHES "a")
      # Architecture-specific targets (sm_90a) are given to nvcc directly.
      set_target_properties(${name}_gpu PROPERTIES CUDA_ARCHITECTURES OFF)
      foreach(arch IN LISTS gpu_architectures)
        target_compile_options(${name}_gpu PRIVATE "-gencode=arch=compute_${arch},code=sm_${arch}")
      endforeach()
    elseif(gpu_architectures)
      set_target_properties(${name}_gpu PROPERTIES CUDA_ARCHITECTURES "${gpu_architectures}")
    endif()
    target_link_libraries(${name}_gpu PUBLIC engine)
    _kernel_library_localize(${name}_gpu CUDA "${rewrite}" gpu_${LIBRARY_ID})
    add_dependencies(${name}_gpu ${name}_cpu)  # whose build makes the tool first
    target_link_libraries(${name} INTERFACE ${name}_gpu)
  endif()
endfunction()

# add_nvcc_check(<name> SOURCE <file.cu> ARCHITECTURES <arch>... [INCLUDES <dir>...] [DEPENDS <file>...])
#
# nvcc compiles the file's device code to machine code (-cubin) for each architecture, as part
# of the build: a file it refuses fails the build with nvcc's message, where no GPU image is
# built (PUZZLES_GPU_IMAGES OFF). These are the device passes of an image's compile (cicc and
# ptxas) without its host pass (cudafe++ and the host compiler), which took most of its time
# (p04: 0.7 s against 3.2 s for sm_75 and sm_90 images on 2 cores).
function(add_nvcc_check name)
  cmake_parse_arguments(ARG "" "SOURCE" "ARCHITECTURES;INCLUDES;DEPENDS" ${ARGN})
  set(flags -std=c++${CMAKE_CUDA_STANDARD} -O2 -DNDEBUG)
  if(CMAKE_CUDA_FLAGS)
    separate_arguments(user_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS}")
    list(APPEND flags ${user_flags})
  endif()
  if(CMAKE_CUDA_HOST_COMPILER)
    list(APPEND flags -ccbin "${CMAKE_CUDA_HOST_COMPILER}")
  endif()
  foreach(dir IN LISTS ARG_INCLUDES)
    list(APPEND flags "-I${dir}")
  endforeach()
  set(outputs "")
  foreach(arch IN LISTS ARG_ARCHITECTURES)
    string(REGEX REPLACE "-(real|virtual)$" "" arch "${arch}")
    if(NOT arch MATCHES "^[0-9]+a?$")
      continue()  # native, all: no GPU here to name them
    endif()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/nvcc_check/${name}/sm_${arch}.cubin")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND "${CMAKE_CUDA_COMPILER}" ${flags} -x cu -cubin "-arch=sm_${arch}"
              -MD -MF "${out}.d" -MT "${out}" -o "${out}" "${ARG_SOURCE}"
      DEPENDS "${ARG_SOURCE}" ${ARG_DEPENDS}
      DEPFILE "${out}.d"
      COMMENT "nvcc: checking that ${name} compiles for sm_${arch}"
      VERBATIM)
    list(APPEND outputs "${out}")
  endforeach()
  if(outputs)
    add_custom_target(${name}_nvcc_check ALL DEPENDS ${outputs})
  endif()
endfunction()

# The flags a kernel file is compiled with for the CPU backend (also programs: checker/program).
function(kernel_cpu_flags out instrument)
  # Kernels keep assert() (NDEBUG off), and full debug information: findings name lines,
  # and the engine reads each kernel's __shared__ variables (names, sizes, dimensions) from
  # it. DWARF 4: the form every line-table reader agrees on (binutils' addr2line misread clang
  # 14's DWARF 5 file table). The compat
  # folder stands in for CUDA's own headers.
  set(flags -UNDEBUG -Wno-unknown-pragmas -Wno-ignored-attributes -g -gdwarf-4)
  if(instrument)
    # AddressSanitizer's instrumentation in "call a function for every access" mode, linked
    # without its runtime: the engine implements the functions (asan_callbacks.cpp). Unlike
    # plain load/store tracing it also reports the memcpy/memset the compiler makes of
    # copies. Stack, globals and duplicate-access shortcuts are off: every access to device
    # memory is seen, once per execution. No vectorizers, and no vector combining (which splits
    # a 16-byte load whose lanes are used one by one into 4-byte loads on aarch64): the
    # accesses keep the widths the kernel wrote (a float4 is one 16-byte access, as on the GPU).
    # No stack-safety analysis: where it is on (clang 19) it proves accesses to a kernel's local arrays
    # in bounds and leaves them unseen, and the wgmma accumulators are such an array (clang 19
    # lost p12's accumulator finding without this flag).
    list(APPEND flags -fsanitize=address -fsanitize-address-use-after-return=never
         -fno-sanitize-address-use-after-scope -fno-vectorize -fno-slp-vectorize -mllvm -disable-vector-combine
         -mllvm -asan-instrumentation-with-call-threshold=0 -mllvm -asan-globals=0
         -mllvm -asan-stack=0 -mllvm -asan-opt-same-temp=0 -mllvm -asan-opt-globals=0
         -mllvm -asan-use-stack-safety=0)
    if(PUZZLES_HAVE_VARIABLE_TRACKER_CHOICE)
      list(APPEND flags -mllvm -experimental-debug-variable-locations=false)  # see the top of this file
    endif()
  endif()

  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# kernel_codegen_flags(<out>)
#
# What compiling a kernel file needs besides kernel_cpu_flags, and what reads it without
# compiling it (the editors' database, for clangd) must not get: flags for the code only.
function(kernel_codegen_flags out)
  set(flags "")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # g++ folds a function whose code equals another's (two kernels with empty bodies, as a
    # puzzle's stub has) into a copy that has no debug information of its own, which the engine
    # needs for each kernel: every kernel keeps its own function. (clang has no such flag.)
    list(APPEND flags -fno-ipa-icf)
  endif()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# The kernel shim of this build's kernel files with `instrument`, rewritten as they are
# (`rewrite`) and precompiled by a target of its own, whose compile options are theirs: sets
# `out_target` to that target, which kernel libraries reuse the header of, and `out_header` to
# the rewritten text. One per build and kind of kernel file (instrumented or plain).
#
# The shim's macros. A kernel file needs the shim's text only as the header it is compiled
# against; to preprocess and rewrite it, the shim's macros are enough, where every header the
# shim brings in is skipped by its include guard when the kernel file includes it again (as it
# is skipped after the whole shim): then `out_macros` is set to a header of those macros
# (clang -E -dM), made with the rewritten text, and each kernel file is preprocessed with it
# alone, a tenth of a second less per kernel file than preprocessing and rewriting the shim's
# 27,000 lines for each. A header marked #pragma once would be read again, so the compiler in
# use proves the condition here, on the headers it finds (shim_headers_guarded.cmake), and
# again whenever they change; where it does not hold, `out_macros` is empty and ptx_rewrite
# --prelude leaves the shim's text out of each kernel file instead.
function(_kernel_precompiled_prelude out_target out_header out_macros instrument cpu_flags rewrite engine_include)
  set(mode plain)
  if(instrument)
    set(mode instrumented)
  endif()
  set(target kernel_prelude_${mode})
  set(dir "${CMAKE_BINARY_DIR}/kernel_prelude/${mode}")
  set(header "${dir}/prelude_ptx.h")
  set(macros "${dir}/prelude_macros.h")
  set(macros_defined "${dir}/prelude_macros_defined.h")
  # Preprocessed as a kernel file is (add_kernel_library), but for the folder of its own
  # generated header, which the shim does not include.
  set(preprocess "${CMAKE_CXX_COMPILER}" ${KERNEL_TARGET_FLAGS} -E ${KERNEL_PREPROCESS_FLAGS} -std=c++${CMAKE_CXX_STANDARD} -O2
                 ${cpu_flags} "-I${engine_include}/cuda_cpu/compat" "-I${engine_include}")
  if(NOT TARGET ${target})
    file(CONFIGURE OUTPUT "${dir}/prelude.cpp" CONTENT "#include \"cuda_cpu/kernel_shim.h\"\n")
    file(CONFIGURE OUTPUT "${dir}/anchor.cpp"
         CONTENT "// The target that compiles the kernel shim's precompiled header (KernelTargets.cmake).\n")
    # Which way kernel files are preprocessed, decided on the headers this compiler finds.
    execute_process(COMMAND ${preprocess} -M -MF "${dir}/configure.d" -o "${dir}/configure.ii" "${dir}/prelude.cpp"
                    RESULT_VARIABLE preprocessed ERROR_VARIABLE preprocess_error)
    set(once_by_pragma "the shim could not be preprocessed: ${preprocess_error}")
    if(preprocessed EQUAL 0)
      include("${KERNEL_TARGETS_DIR}/shim_headers_guarded.cmake")
      shim_headers_once_by_pragma(once_by_pragma "${dir}/configure.d")
    endif()
    set(macro_outputs "")
    set(macro_commands "")
    if(once_by_pragma)
      message(STATUS "Kernel files (${mode}) are preprocessed with the whole kernel shim: it brings in "
                     "headers marked #pragma once (${once_by_pragma})")
      set_property(GLOBAL PROPERTY KERNEL_PRELUDE_MACROS_${mode} "")
      file(REMOVE "${macros}" "${macros_defined}")  # an earlier configuration's, which nothing reads now
    else()
      # Every macro defined after the shim (clang -E -dM), the compiler's predefined ones too,
      # which clang 19 warns about when they are defined again: not for these.
      file(CONFIGURE OUTPUT "${macros}" CONTENT
           "// The kernel shim's macros, with which kernel files are preprocessed (KernelTargets.cmake).\n#pragma clang diagnostic push\n#pragma clang diagnostic ignored \"-Wbuiltin-macro-redefined\"\n#include \"prelude_macros_defined.h\"\n#pragma clang diagnostic pop\n")
      set(macro_outputs "${macros_defined}")
      set(macro_commands
          COMMAND "${CMAKE_COMMAND}" "-DDEPFILE=${dir}/prelude.ii.d" -P "${KERNEL_TARGETS_DIR}/shim_headers_guarded.cmake"
          COMMAND ${preprocess} -dM -o "${macros_defined}" "${dir}/prelude.cpp")
      set_property(GLOBAL PROPERTY KERNEL_PRELUDE_MACROS_${mode} "${macros}")
    endif()
    add_custom_command(
      OUTPUT "${header}" ${macro_outputs}
      COMMAND ${preprocess} -MD -MF "${dir}/prelude.ii.d" -MT "${header}" -o "${dir}/prelude.ii" "${dir}/prelude.cpp"
      COMMAND ${rewrite} "${dir}/prelude.ii" "${header}"
      ${macro_commands}
      DEPENDS "${dir}/prelude.cpp" ${rewrite} "${KERNEL_TARGETS_DIR}/shim_headers_guarded.cmake"
      DEPFILE "${dir}/prelude.ii.d"
      COMMENT "Preparing the kernel shim for the CPU backend (${mode} kernels)"
      VERBATIM)
    add_library(${target} OBJECT "${dir}/anchor.cpp" "${header}")
    # A target's options are de-duplicated, which would leave one -mllvm for several LLVM
    # options (clang 19 refuses the others; clang 14 ignored them): each pair stays whole.
    set(options "")
    set(pending "")
    foreach(flag IN LISTS cpu_flags)
      if(pending)
        list(APPEND options "SHELL:-mllvm ${flag}")
        set(pending "")
      elseif(flag STREQUAL "-mllvm")
        set(pending ON)
      else()
        list(APPEND options "${flag}")
      endif()
    endforeach()
    target_compile_options(${target} PRIVATE ${options})
    target_link_libraries(${target} PRIVATE engine)
    target_precompile_headers(${target} PRIVATE "${header}")
  endif()
  set(${out_target} ${target} PARENT_SCOPE)
  set(${out_header} "${header}" PARENT_SCOPE)
  get_property(made_macros GLOBAL PROPERTY KERNEL_PRELUDE_MACROS_${mode})
  set(${out_macros} "${made_macros}" PARENT_SCOPE)
endfunction()

# Compiles the target's sources through `tool --localize-symbols`, which runs the compiler and
# then renames every symbol the object defines except its exports, in the compile step itself
# (a step after archiving that listed and renamed the symbols with cmake -P, nm and objcopy took
# a quarter of a kernel file's build).
function(_kernel_library_localize target language tool suffix)
  set_target_properties(${target} PROPERTIES
    ${language}_COMPILER_LAUNCHER "$<TARGET_FILE:${tool}>;--localize-symbols;${suffix};--")
endfunction()

# The build's GPU architectures that reach `min` (80, or 90a for Hopper-only instructions):
# "native" is this machine's GPU; an architecture-specific minimum (90a) is only met by that
# very architecture, built as such.
function(_kernel_gpu_architectures out min)
  # Architecture-specific targets (sm_90a) came with CUDA 12.0: an older nvcc (Debian 12's is
  # 11.8) builds no such kernel, and the CPU backend runs them.
  if(min MATCHES "a$" AND CMAKE_CUDA_COMPILER_VERSION AND CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.0)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(archs ${CMAKE_CUDA_ARCHITECTURES})
  if(archs STREQUAL "native" OR archs STREQUAL "all" OR archs STREQUAL "all-major")
    set(archs ${PUZZLES_NATIVE_CUDA_ARCH})
  endif()
  string(REGEX REPLACE "a$" "" min_number "${min}")
  set(kept "")
  foreach(arch IN LISTS archs)
    string(REGEX REPLACE "-(real|virtual)$" "" arch "${arch}")
    string(REGEX REPLACE "a$" "" number "${arch}")
    if(NOT number MATCHES "^[0-9]+$")
      continue()
    endif()
    if(min MATCHES "a$")
      if(number EQUAL min_number)
        list(APPEND kept "${min}")
      endif()
    elseif(number GREATER_EQUAL min_number)
      list(APPEND kept "${arch}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES kept)
  set(${out} "${kept}" PARENT_SCOPE)
endfunction()
