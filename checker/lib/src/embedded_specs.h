// The spec files' texts, put into the program by the build (checker/cmake/PuzzleSpecs.cmake),
// so a checker needs no files at run time.
#pragma once

#include <vector>

namespace checker {

struct EmbeddedSpec {
  const char* file;  // "p04_tiled.json"
  const char* text;
};

const std::vector<EmbeddedSpec>& embedded_specs();

}  // namespace checker
