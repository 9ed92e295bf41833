// A whole CUDA program run on the CPU backend (checker/run <program.cu>, docs/programs.md):
// what each launch from its host code found, said on stderr in the checker's words, and
// written as facts, one JSON object a line, to the file that PUZZLES_PROGRAM_REPORT names
// (the command line reads it; docs/dev/program-json.md).
#pragma once

namespace checker {

// Installs the report on the engine's launches; the generated program wrapper calls it
// before main. Returns true, for a static initializer.
bool install_program_report();

}  // namespace checker
