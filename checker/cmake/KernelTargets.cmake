# add_kernel_library(<name> SOURCE <file.cu> KERNELS <kernel>... [NAMESPACE <ns>]
#                    [SIGNATURE <function type>] [CPU_ONLY] [NOT_INSTRUMENTED])
#
# Compiles one CUDA source for every backend of this build, unchanged: for the CPU backend
# with the host compiler (instrumented when it is clang), and with nvcc when CUDA is on.
# Host code includes the generated "<name>_kernels.h" and calls
# kernels::<ns>::cpu_<kernel>() and kernels::<ns>::gpu_<kernel>() for the images.
# A kernel may be a template instantiation, "matmul_warp_tiled<BM, BN>", whose arguments
# the source defines; it is then exported under the name before '<' (matmul_warp_tiled).
# SIGNATURE (the same for every kernel) turns a changed parameter list into a clear
# compile error. CPU_ONLY: for kernels that nvcc rightly refuses (tests of the CPU
# backend's limits). NOT_INSTRUMENTED: no load/store checks, for measuring the engine.
set(KERNEL_TARGETS_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(add_kernel_library name)
  cmake_parse_arguments(ARG "CPU_ONLY;NOT_INSTRUMENTED" "SOURCE;NAMESPACE;SIGNATURE" "KERNELS" ${ARGN})
  set(with_gpu ${PUZZLES_HAVE_CUDA})
  if(ARG_CPU_ONLY)
    set(with_gpu OFF)
  endif()
  get_filename_component(SOURCE "${ARG_SOURCE}" ABSOLUTE)
  set(NAMESPACE "${ARG_NAMESPACE}")
  if(NOT NAMESPACE)
    string(MAKE_C_IDENTIFIER "${name}" NAMESPACE)
  endif()
  string(MAKE_C_IDENTIFIER "${name}" LIBRARY_ID)
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/kernels/${name}")
  set(DYNAMIC_SHARED_INC "${gen}/dynamic_shared.inc")

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
      "  using namespace ::cpu_kernels_${LIBRARY_ID};  // the source's names, for template arguments\n"
      "  static const engine::KernelImage image = [] {\n"
      "    auto i = engine::make_cpu_image<&::cpu_kernels_${LIBRARY_ID}::${kernel}>(\"${k}\", ${instrumented}, \"${SOURCE}\");\n"
      "#ifdef CUDA_CPU_HAS_DYNAMIC_SHARED\n"
      "    i.dynamic_shared = &dynamic_shared_storage;\n"
      "    i.dynamic_shared_capacity = CUDA_CPU_DYNAMIC_SHARED_BYTES;\n"
      "#endif\n"
      "    return i;\n"
      "  }();\n"
      "  return image;\n"
      "}\n")
    if(with_gpu)
      string(APPEND GPU_EXPORTS
        "const engine::KernelImage& gpu_${k}() {\n"
        "  using namespace ::gpu_kernels_${LIBRARY_ID};\n"
        "  static const engine::KernelImage image =\n"
        "      engine::make_gpu_image(\"${k}\", &::gpu_kernels_${LIBRARY_ID}::${kernel}, \"${SOURCE}\");\n"
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
        "using namespace ::cpu_kernels_${LIBRARY_ID};\n"
        "static_assert(std::is_same<decltype(::cpu_kernels_${LIBRARY_ID}::${kernel}), ${ARG_SIGNATURE}>::value,\n"
        "              \"${k} must keep its parameters exactly as given: ${ARG_SIGNATURE}. \"\n"
        "              \"Change only the kernel's body.\");\n"
        "}\n")
    endif()
  endforeach()

  configure_file("${KERNEL_TARGETS_DIR}/kernels.h.in" "${gen}/${name}_kernels.h" @ONLY)
  configure_file("${KERNEL_TARGETS_DIR}/kernel_cpu.cpp.in" "${gen}/cpu.cpp" @ONLY)
  add_custom_command(
    OUTPUT "${DYNAMIC_SHARED_INC}"
    COMMAND "${CMAKE_COMMAND}" -DSOURCE=${SOURCE} -DOUTPUT=${DYNAMIC_SHARED_INC}
            -P "${KERNEL_TARGETS_DIR}/scan_dynamic_shared.cmake"
    DEPENDS "${SOURCE}" "${KERNEL_TARGETS_DIR}/scan_dynamic_shared.cmake"
    COMMENT "Scanning ${ARG_SOURCE} for extern __shared__ arrays"
    VERBATIM)

  set(sources "${gen}/cpu.cpp" "${DYNAMIC_SHARED_INC}")
  set_source_files_properties("${gen}/cpu.cpp" PROPERTIES OBJECT_DEPENDS "${SOURCE};${DYNAMIC_SHARED_INC}")
  if(with_gpu)
    configure_file("${KERNEL_TARGETS_DIR}/kernel_gpu.cu.in" "${gen}/gpu.cu" @ONLY)
    set_source_files_properties("${gen}/gpu.cu" PROPERTIES OBJECT_DEPENDS "${SOURCE}")
    list(APPEND sources "${gen}/gpu.cu")
  endif()

  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC "${gen}")
  target_link_libraries(${name} PUBLIC engine_headers)
  # Kernels keep assert() (NDEBUG off), and full debug information: findings name lines,
  # and the engine reads each kernel's __shared__ variables (names, sizes, dimensions) from
  # it. DWARF 4: binutils' addr2line misreads clang 14's DWARF 5 file table. The compat
  # folder stands in for CUDA's own headers.
  set(cpu_flags -UNDEBUG -Wno-unknown-pragmas -Wno-ignored-attributes -g -gdwarf-4
                "-I${KERNEL_TARGETS_DIR}/../engine/include/cuda_cpu/compat")
  if(instrument)
    # AddressSanitizer's instrumentation in "call a function for every access" mode, linked
    # without its runtime: the engine implements the functions (asan_callbacks.cpp). Unlike
    # plain load/store tracing it also reports the memcpy/memset the compiler makes of
    # copies. Stack, globals and duplicate-access shortcuts are off: every access to device
    # memory is seen, once per execution. No vectorizers: the accesses keep the widths the
    # kernel wrote (a float4 is one 16-byte access, as on the GPU).
    list(APPEND cpu_flags -fsanitize=address -fsanitize-address-use-after-return=never
         -fno-sanitize-address-use-after-scope -fno-vectorize -fno-slp-vectorize
         -mllvm -asan-instrumentation-with-call-threshold=0 -mllvm -asan-globals=0
         -mllvm -asan-stack=0 -mllvm -asan-opt-same-temp=0 -mllvm -asan-opt-globals=0)
  endif()
  set_source_files_properties("${gen}/cpu.cpp" PROPERTIES COMPILE_OPTIONS "${cpu_flags}")
  if(with_gpu)
    set_source_files_properties("${gen}/gpu.cu" PROPERTIES COMPILE_OPTIONS "-lineinfo")
  endif()
endfunction()
