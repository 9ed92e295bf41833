# The Python interpreter of every find_package(Python3) in this build: Debian's, which the core
# group of checker/debian-packages.txt installs and where that list's Python packages import,
# before the first python3 in PATH, as checker/install-packages' course_python picks for the
# command line. A version manager's shim first in PATH (pyenv's) costs 0.4 s each time it starts
# an interpreter, and the test suite starts hundreds: a compiler launcher for each object of the
# tests' own build trees, a process for each Python test. `-DPython3_EXECUTABLE=...` still picks
# another.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH
      "The Python 3 interpreter of the tests and tools (Debian's, as checker/run uses)")
endif()
