# Writes OUTPUT: CMake's compilation database (CMAKE_DATABASE) and the kernel files' entries
# (KERNELS, EditorDatabase.cmake), one JSON array. Run as:
#   cmake -DCMAKE_DATABASE=... -DKERNELS=... -DOUTPUT=... -P merge_editor_database.cmake
# Plain strings, not CMake lists: a command may hold a ';'.
set(body "")
foreach(input IN ITEMS "${CMAKE_DATABASE}" "${KERNELS}")
  file(READ "${input}" text)
  string(JSON type ERROR_VARIABLE error TYPE "${text}")
  if(NOT type STREQUAL "ARRAY")
    message(FATAL_ERROR "${input} is not a JSON array of compile commands: ${error}")
  endif()
  # The entries between the array's brackets.
  string(REGEX REPLACE "^[ \t\r\n]*\\[" "" text "${text}")
  string(REGEX REPLACE "\\][ \t\r\n]*$" "" text "${text}")
  string(STRIP "${text}" text)
  if(NOT text STREQUAL "" AND NOT body STREQUAL "")
    string(APPEND body ",\n")
  endif()
  string(APPEND body "${text}")
endforeach()
file(WRITE "${OUTPUT}.new" "[\n${body}\n]\n")
file(RENAME "${OUTPUT}.new" "${OUTPUT}")
