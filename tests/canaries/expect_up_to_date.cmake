# A build with nothing changed must not run the canaries again: they cost seconds, and every
# checker/run builds checker_lib, which waits for them. Builds the canaries' target twice (the
# first settles anything a test before this one left stale) and fails if the second ran them.
#   cmake -DBUILD_DIR=<the course's build tree> -P expect_up_to_date.cmake
set(announcement "Checking that kernels built by")
foreach(attempt first second)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target canaries
                  RESULT_VARIABLE status OUTPUT_VARIABLE printed ERROR_VARIABLE printed)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "Building the canaries failed (${status}):\n${printed}")
  endif()
endforeach()
string(FIND "${printed}" "${announcement}" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "A build with nothing changed ran the canaries again:\n${printed}")
endif()
message("Up to date: the second build did not run the canaries.")
