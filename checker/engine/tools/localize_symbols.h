// Renames apart what a kernel file's object defines for the whole program (see
// localize_symbols.cpp). Part of ptx_rewrite, the kernel build's tool that runs on the build
// machine.
#pragma once

#include <string>

namespace localize {

// Appends "." + suffix to the name of every symbol that the ELF relocatable object at `path`
// defines for the whole program (global, weak and unique symbols), except those whose name
// begins with `keep_prefix`, and to its functions' local statics (_ZZ...). Rewrites the file in
// place; false with `error` set where it is not a 64-bit little-endian ELF object or cannot be
// read or written.
bool localize_symbols(const std::string& path, const std::string& suffix, const std::string& keep_prefix,
                      std::string& error);

// ptx_rewrite --localize-symbols SUFFIX -- COMPILER ARGS...: runs the compiler, then renames the
// symbols of the object it wrote (its -o) with SUFFIX. The compiler's exit status, or 1 where the
// renaming failed (the object is then removed, so that no build takes it for done).
int compile_then_localize(int argc, char** argv);

}  // namespace localize
