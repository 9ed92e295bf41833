// The phrases that a finding's explanation (explain.cpp) and its diagnostic lines
// (diagnostic.cpp) share, so that both name a thread, an element and a line the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/findings.h"

namespace checker::words {

// "a_tile[3][4]" from the array's dimensions (the engine reads them from the kernel's debug
// information), else "a_tile (element 52)".
std::string shared_element(const engine::Finding& f);
// "b[16]": a global buffer's element.
std::string element(const engine::Finding& f);
// " at line 23 of p04_tiled.cu", " near line 23 of ...", or "" when the line is unknown.
std::string at_line(const engine::SourceLocation& at);
// "1 thread", "5 threads".
std::string plural(std::uint64_t count, const std::string& one, const std::string& many);
// "(0,0), (1,0) and 3 more": a group's sample, and how many it leaves out.
std::string thread_list(const std::vector<engine::Dim3>& sample, std::uint64_t count);

}  // namespace checker::words
