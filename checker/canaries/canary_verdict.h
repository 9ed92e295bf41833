// The canaries' verdict: the results as JSON for tools, and, when a check is lost, the one
// message that says so (the only place its words live).
#pragma once

#include <string>
#include <vector>

#include "canaries.h"

namespace canaries {

bool all_found(const std::vector<Result>& results);
// The results as a JSON document (canary_main writes it to --json).
std::string to_json(const Build& build, const std::vector<Result>& results);
// Why the course refuses this compiler and what to do instead; `json_file`: where the data is.
std::string refusal(const Build& build, const std::vector<Result>& results, const std::string& json_file);

}  // namespace canaries
