# Configures and builds a small tree with PUZZLES_SOLVED, without editing a file, and
# checks that the chosen checker now passes while the others still check puzzles/.
# Run as: cmake -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... [-DBUILD_TYPE=...]
#         [-DMAIN_BUILD=... -DPYTHON=...] -P instructor_build.cmake
# With MAIN_BUILD, objects compiled there by the same command from the same bytes are copied
# from it (tests/support/reuse_objects.py); BUILD_TYPE, the main build's, keeps the commands equal.
file(REMOVE_RECURSE "${WORK_DIR}" "${WORK_DIR}-reuse")
set(launcher "")
if(MAIN_BUILD AND PYTHON)
  execute_process(
    COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/support/reuse_objects.py" --launcher --main-build "${MAIN_BUILD}"
            --from-source "${SOURCE_DIR}" --to-source "${SOURCE_DIR}" --to-build "${WORK_DIR}"
            --work "${WORK_DIR}-reuse"
    OUTPUT_VARIABLE launcher OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G Ninja -DCMAKE_CXX_COMPILER=${CXX}
          "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" "-DCMAKE_CXX_COMPILER_LAUNCHER=${launcher}"
          -DPUZZLES_ENABLE_CUDA=OFF -DPUZZLES_BUILD_TESTS=OFF "-DPUZZLES_SOLVED=p05_single_block_aat;p04_tiled"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed:\n${out}")
endif()
if(NOT out MATCHES "Instructor build: p05_single_block_aat checks solutions/p05_single_block_aat.cu")
  message(FATAL_ERROR "configure did not report the instructor build:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target p05_single_block_aat p01_naive
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build failed:\n${out}")
endif()
execute_process(COMMAND "${WORK_DIR}/bin/p05_single_block_aat" --backend=cpu RESULT_VARIABLE solved OUTPUT_VARIABLE out)
if(NOT solved EQUAL 0)
  message(FATAL_ERROR "p05 built against solutions/ should pass, but exited ${solved}:\n${out}")
endif()
execute_process(COMMAND "${WORK_DIR}/bin/p01_naive" --backend=cpu RESULT_VARIABLE stub OUTPUT_VARIABLE out)
if(NOT stub EQUAL 1)
  message(FATAL_ERROR "p01 (not in PUZZLES_SOLVED) should still check the stub and fail, but exited ${stub}")
endif()
message(STATUS "PUZZLES_SOLVED switched p05 to solutions/ and left p01 on puzzles/")
file(REMOVE_RECURSE "${WORK_DIR}" "${WORK_DIR}-reuse")
