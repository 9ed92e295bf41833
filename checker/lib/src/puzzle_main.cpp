#include "checker/puzzle_main.h"

#include <cstdio>
#include <map>
#include <string>

#include "checker/checker.h"
#include "checker/puzzle.h"

namespace checker {

int puzzle_main(const char* puzzle_id, std::initializer_list<ConstantOverride> constants,
                std::initializer_list<const engine::KernelImage*> cpu,
                std::initializer_list<const engine::KernelImage*> gpu, int argc, char** argv) {
  // Before the spec is first read: its launch formulas, budgets and words use these values.
  std::map<std::string, long long> values;
  for (const ConstantOverride& c : constants) values[c.name] = c.value;
  const std::string wrong = override_constants(puzzle_id, values);
  if (!wrong.empty()) {
    std::fprintf(stderr, "%s\n", wrong.c_str());
    return 2;
  }
  return run_puzzle(puzzle_id, KernelImages(cpu), KernelImages(gpu), argc, argv);
}

}  // namespace checker
