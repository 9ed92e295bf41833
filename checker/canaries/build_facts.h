// The facts of the build a canary runner belongs to: the compiler, the kernel flags, the build
// folder and the course's folder. CMake writes them into a small source file of each runner's
// own (build_facts.cpp.in), so that the runner's other files compile to the same objects in
// every build tree of the course (the tests' copies reuse them: tests/support/reuse_objects.py).
#pragma once

namespace canaries {

struct BuildFacts {
  const char* compiler_id;       // CMake's CMAKE_CXX_COMPILER_ID ("Clang")
  const char* compiler_version;  // "19.1.7"
  const char* compiler_path;     // "/usr/bin/clang++"
  const char* kernel_flags;      // space-separated; no flag has a space of its own
  const char* build_dir;         // relative to the course's folder when inside it
  const char* source_dir;        // the course's folder
};

extern const BuildFacts this_build;

}  // namespace canaries
