# A CMake project with the CUDA language, built for the course's CPU backend (docs/programs.md):
#
#   cmake -C <course>/checker/nvcc.cmake -S <project> -B <build>
#
# The project's nvcc is checker/nvcc, and its CUDA toolkit (find_package(CUDAToolkit),
# CUDA::cudart) the course build's folder laid out as one. checker/nvcc prepares the course's
# build first, as checker/run does, and says where that folder is.
execute_process(COMMAND "${CMAKE_CURRENT_LIST_DIR}/nvcc" --print-toolkit-root
                OUTPUT_VARIABLE toolkit RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0 OR NOT IS_DIRECTORY "${toolkit}")
  message(FATAL_ERROR "checker/nvcc could not prepare the course's build (its message is above).")
endif()
set(CMAKE_CUDA_COMPILER "${toolkit}/bin/nvcc" CACHE FILEPATH "checker/nvcc: CUDA on the course's CPU backend")
set(CUDAToolkit_ROOT "${toolkit}" CACHE PATH "The course build's folder laid out as a CUDA toolkit")
# A target of .cu and .cpp files is linked by the C++ compiler, with CUDA's runtime by name
# (-lcudart_static): the toolkit folder's lib64 holds what those names link, the engine.
set(CMAKE_EXE_LINKER_FLAGS "-L${toolkit}/lib64" CACHE STRING "checker/nvcc: CUDA's runtime libraries are the engine")
set(CMAKE_SHARED_LINKER_FLAGS "-L${toolkit}/lib64" CACHE STRING "checker/nvcc: CUDA's runtime libraries are the engine")
