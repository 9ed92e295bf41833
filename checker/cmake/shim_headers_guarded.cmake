# Whether every header that the kernel shim brings in is included once by a guard macro, not by
# `#pragma once`: the condition under which a kernel file may be preprocessed with the shim's
# macros alone (KernelTargets.cmake, "the shim's macros"). A guarded header that the kernel file
# includes again is skipped because its macro is among the shim's, as it is skipped after the
# whole shim; a `#pragma once` header would be read again, and its text would reach the kernel
# file's compile twice.
#
# As a function (KernelTargets.cmake, at configure time):
#   shim_headers_once_by_pragma(<out> <depfile>)  sets <out> to the headers marked #pragma once
# As a script (the shim's build step, whenever its headers change):
#   cmake -DDEPFILE=<depfile> -P shim_headers_guarded.cmake
#   fails, naming each such header, where the configure step had found none.

# The files a make-style depfile lists (clang -M / -MD), its target left out.
function(_shim_depfile_files out depfile)
  file(READ "${depfile}" text)
  string(REPLACE "\\\n" " " text "${text}")
  string(REGEX REPLACE "^[^:]*: " "" text "${text}")
  # A space inside a path is written "\ ".
  string(REPLACE "\\ " "<space>" text "${text}")
  string(REGEX REPLACE "[ \t\r\n]+" ";" files "${text}")
  set(found "")
  foreach(file IN LISTS files)
    if(file)
      string(REPLACE "<space>" " " file "${file}")
      list(APPEND found "${file}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(shim_headers_once_by_pragma out depfile)
  _shim_depfile_files(files "${depfile}")
  set(marked "")
  foreach(file IN LISTS files)
    if(EXISTS "${file}" AND NOT IS_DIRECTORY "${file}")
      file(STRINGS "${file}" pragma REGEX "^[ \t]*#[ \t]*pragma[ \t]+once")
      if(pragma)
        list(APPEND marked "${file}")
      endif()
    endif()
  endforeach()
  set(${out} "${marked}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEPFILE)
  shim_headers_once_by_pragma(marked "${DEPFILE}")
  if(marked)
    list(JOIN marked "\n  " names)
    message(FATAL_ERROR "The kernel shim now brings in headers marked #pragma once:\n  ${names}\n"
                        "Kernel files are preprocessed with the shim's macros alone, which skip a header "
                        "only by its include guard. Give each an include guard, or configure the build "
                        "again (it then preprocesses the whole shim with every kernel file).")
  endif()
endif()
