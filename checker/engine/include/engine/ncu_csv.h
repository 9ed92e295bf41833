// Nsight Compute's `--csv` report read back: one entry per profiled kernel launch, with the
// value of each metric it was asked for. Text in, numbers out; running ncu is the caller's job.
#ifndef ENGINE_NCU_CSV_H_
#define ENGINE_NCU_CSV_H_

#include <map>
#include <string>
#include <vector>

namespace engine {

struct NcuLaunch {
  std::string id;      // ncu's launch number, as it printed it
  std::string kernel;  // the demangled name with its parameter list, as ncu prints it
  std::map<std::string, double> metrics;

  // The launch's value of `metric`, or -1 when the report has none (a name ncu does not know).
  double value(const std::string& metric) const;
  // The kernel's name alone: "void tiled<(int)16>(const float *)" -> "tiled".
  std::string function() const;
};

// The launches in report order. Lines that are not CSV (the program's own output, ==PROF==
// notes) are skipped; values such as "1,048,576" lose their thousands separators.
std::vector<NcuLaunch> read_ncu_csv(const std::string& text);

// The first launch of a kernel named `name` (the name alone, without parameters), or nullptr.
const NcuLaunch* find_launch(const std::vector<NcuLaunch>& launches, const std::string& name);

}  // namespace engine

#endif  // ENGINE_NCU_CSV_H_
