// The kernel shim's text, compiled once per build. Every kernel file the build makes for the
// CPU backend begins with `#include "cuda_cpu/kernel_shim.h"`, which brings the standard
// headers and the CUDA names: 27,000 preprocessed lines, most of a kernel's compile time.
// The build rewrites the shim alone, as it rewrites a kernel file, and compiles that text into
// a precompiled header (checker/cmake/KernelTargets.cmake); each kernel file then leaves out
// the same text and is compiled against the header. The compiler sees the same declarations
// in the same order, so the code is the same; only the parse is saved.
#pragma once

#include <string>

// The rewritten shim in `prelude` (the preprocessed file `#include "cuda_cpu/kernel_shim.h"`,
// rewritten): where `text`, a rewritten kernel file, holds the same text from the shim's first
// line to its end, replaces it with a line marker that goes on at the kernel file's next line.
// Else returns false with `error` saying what differs: compiled against the header, such a file
// would declare things twice or not at all, so the build stops instead.
bool leave_out_precompiled_prelude(std::string& text, const std::string& prelude, std::string& error);
