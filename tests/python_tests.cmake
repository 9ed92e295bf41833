# add_python_tests(<prefix> <script.py> TESTS <"method|what it proves">...
#                  [ENVIRONMENT <NAME=value>...] [PROPERTIES <name value>...])
#
# One CTest test per method of a standard-library unittest script, named "<prefix>: <what it
# proves>", run as `python3 <script> <method>`. Every test gets the ENVIRONMENT and the other
# PROPERTIES (labels, fixtures, timeout, SKIP_RETURN_CODE 77 for scripts that skip when
# something they need is missing). The folders' CMakeLists register their methods through it.
function(add_python_tests prefix script)
  cmake_parse_arguments(ARG "" "" "TESTS;ENVIRONMENT;PROPERTIES" ${ARGN})
  foreach(entry IN LISTS ARG_TESTS)
    string(FIND "${entry}" "|" bar)
    if(bar LESS 1)
      message(FATAL_ERROR "add_python_tests(${prefix}): '${entry}' is not \"method|what it proves\"")
    endif()
    string(SUBSTRING "${entry}" 0 ${bar} method)
    math(EXPR start "${bar} + 1")
    string(SUBSTRING "${entry}" ${start} -1 description)
    add_test(NAME "${prefix}: ${description}" COMMAND "${Python3_EXECUTABLE}" "${script}" ${method})
    set_tests_properties("${prefix}: ${description}" PROPERTIES ENVIRONMENT "${ARG_ENVIRONMENT}" ${ARG_PROPERTIES})
  endforeach()
endfunction()
