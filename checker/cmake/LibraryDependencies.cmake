# The packages the engine and the checker library link to: found by the course's build, and
# again by a program's build (checker/program), which imports those libraries.
find_package(Boost 1.66 REQUIRED COMPONENTS context)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(libdw REQUIRED IMPORTED_TARGET libdw)
