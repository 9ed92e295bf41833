# link_directly(<target>...): the targets' links run the linker that clang's driver would run,
# without starting the driver (checker/engine/tools/direct_link.cpp), where this build has the
# tool: clang linking with mold or lld, on the machine that builds. The tool keeps what it learns from
# the driver in <build>/link-templates, one file for each set of link flags.
function(link_directly)
  get_property(tool GLOBAL PROPERTY PUZZLES_DIRECT_LINK)  # the target
  get_property(path GLOBAL PROPERTY PUZZLES_DIRECT_LINK_PATH)  # its file: a launcher is no generator expression
  if(NOT tool)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    set_target_properties(${target} PROPERTIES
      CXX_LINKER_LAUNCHER "${path};${CMAKE_BINARY_DIR}/link-templates;--")
    get_target_property(imported ${tool} IMPORTED)
    if(NOT imported)
      add_dependencies(${target} ${tool})
    endif()
  endforeach()
endfunction()
