// Loading and validating the puzzle specs (checker/specs/*.json, embedded by the build).
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "checker/puzzle.h"
#include "embedded_specs.h"

namespace checker {
namespace {

using nlohmann::json;

class SpecReader {
 public:
  SpecReader(const json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    throw engine::Error(file_ + ": " + field + ": " + why);
  }

  const json& at(const json& object, const std::string& key, const std::string& path) const {
    if (!object.is_object() || !object.contains(key)) fail(path + key, "missing");
    return object.at(key);
  }
  std::string text(const json& object, const std::string& key, const std::string& path = "") const {
    const json& v = at(object, key, path);
    if (!v.is_string()) fail(path + key, "must be a string");
    return v.get<std::string>();
  }
  std::string optional_text(const json& object, const std::string& key) const {
    return object.contains(key) ? text(object, key) : std::string();
  }
  long long integer(const json& v, const std::string& field) const {
    if (!v.is_number_integer()) fail(field, "must be a whole number");
    return v.get<long long>();
  }
  std::vector<std::string> texts(const json& object, const std::string& key, const std::string& path = "") const {
    const json& v = at(object, key, path);
    if (!v.is_array()) fail(path + key, "must be a list of strings");
    std::vector<std::string> out;
    for (const json& item : v) {
      if (!item.is_string()) fail(path + key, "must be a list of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  Dims dims(const json& v, bool square, const std::string& field) const {
    if (square) {
      long n = static_cast<long>(integer(v, field));
      if (n < 1) fail(field, "sizes start at 1");
      return Dims{n, n, n};
    }
    if (!v.is_array() || v.size() != 3) fail(field, "must be [m, n, k]");
    Dims d{static_cast<long>(integer(v[0], field)), static_cast<long>(integer(v[1], field)),
           static_cast<long>(integer(v[2], field))};
    if (d.m < 1 || d.n < 1 || d.k < 1) fail(field, "sizes start at 1");
    return d;
  }
  std::vector<Dims> dims_list(const json& object, const std::string& key, bool square, const std::string& path) const {
    const json& v = at(object, key, path);
    if (!v.is_array()) fail(path + key, "must be a list of sizes");
    std::vector<Dims> out;
    for (const json& item : v) out.push_back(dims(item, square, path + key));
    return out;
  }

  const json& doc_;
  std::string file_;
};

ElementType element_type(const std::string& type, const SpecReader& r) {
  std::string base = type;
  for (const char* word : {"const", "*", "__restrict__", " "}) {
    for (std::size_t p; (p = base.find(word)) != std::string::npos;) base.erase(p, std::string(word).size());
  }
  if (base == "float") return ElementType::f32;
  if (base == "__half" || base == "half") return ElementType::f16;
  r.fail("signature", "buffers must be float or __half, not '" + type + "'");
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\n");
  auto e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// "void(const float* a, const float* b, float* c, int n)" -> the parameters and their roles.
void read_signature(PuzzleSpec& spec, const SpecReader& r) {
  const std::string& sig = spec.signature;
  auto open = sig.find('('), close = sig.rfind(')');
  if (trim(sig.substr(0, open == std::string::npos ? 0 : open)) != "void" || close == std::string::npos)
    r.fail("signature", "must look like void(const float* a, const float* b, float* c, int n)");
  std::stringstream list(sig.substr(open + 1, close - open - 1));
  std::string piece;
  int ints = 0;
  while (std::getline(list, piece, ',')) {
    piece = trim(piece);
    auto split = piece.find_last_of(" *&");
    if (split == std::string::npos) r.fail("signature", "every parameter needs a type and a name: '" + piece + "'");
    KernelParam p{trim(piece.substr(0, split + 1)), trim(piece.substr(split + 1)), ParamRole::a};
    bool pointer = p.type.find('*') != std::string::npos;
    bool constant = p.type.find("const") != std::string::npos;
    if (pointer && constant && p.name == "a") {
      p.role = ParamRole::a;
      spec.a_type = element_type(p.type, r);
    } else if (pointer && constant && p.name == "b") {
      p.role = ParamRole::b;
      spec.b_type = element_type(p.type, r);
    } else if (pointer && !constant) {
      p.role = ParamRole::c;
      spec.output_name = p.name;
      spec.c_type = element_type(p.type, r);
      if (spec.c_type != ElementType::f32) r.fail("signature", "the checker supports float outputs only");
    } else if (p.type == "int" && (p.name == "m" || p.name == "k")) {
      p.role = p.name == "m" ? ParamRole::m : ParamRole::k;
      ++ints;
    } else if (p.type == "int") {
      p.role = p.name == "n" ? ParamRole::n : ParamRole::size;
      ++ints;
    } else if (p.type == "float" && (p.name == "alpha" || p.name == "beta")) {
      p.role = p.name == "alpha" ? ParamRole::alpha : ParamRole::beta;
    } else if (!pointer && p.type.find("CUtensorMap") != std::string::npos &&
               (p.name == "a_map" || p.name == "b_map" || p.name == "c_map")) {
      if (p.type.find("__grid_constant__") == std::string::npos || !constant)
        r.fail("signature", "a tensor map is passed as const __grid_constant__ CUtensorMap: '" + piece + "'");
      p.role = p.name == "a_map" ? ParamRole::a_map : p.name == "b_map" ? ParamRole::b_map : ParamRole::c_map;
      // a and b maps hold halves; c's map is the output's, of floats (the output pointer stays a
      // parameter: the checker fills and reads it).
      if (p.role != ParamRole::c_map) (p.role == ParamRole::a_map ? spec.a_type : spec.b_type) = ElementType::f16;
    } else {
      r.fail("signature", "parameter '" + piece + "' is not one the checker can supply (a, b, an output, "
                          "the size n or m, n, k, alpha, beta)");
    }
    spec.params.push_back(p);
  }
  auto has = [&](ParamRole role) {
    return std::any_of(spec.params.begin(), spec.params.end(), [&](const KernelParam& p) { return p.role == role; });
  };
  if (!(has(ParamRole::a) || has(ParamRole::a_map)) || !(has(ParamRole::b) || has(ParamRole::b_map)) ||
      spec.output_name.empty())
    r.fail("signature", "needs const inputs named a and b (or tensor maps a_map and b_map) and one output");
  spec.square = ints == 1;
  if (spec.square) {
    for (KernelParam& p : spec.params)
      if (p.role == ParamRole::n || p.role == ParamRole::size) {
        p.role = ParamRole::size;
        spec.size_name = p.name;
      }
  } else if (!(ints == 3 && has(ParamRole::m) && has(ParamRole::n) && has(ParamRole::k))) {
    r.fail("signature", "needs either one size parameter or int m, int n, int k");
  }
  if (has(ParamRole::alpha) != has(ParamRole::beta)) r.fail("signature", "alpha and beta come together");
}

// "tensor_maps": {"a_map": {"matrix": "a", "box": ["BK", "BM"], "swizzle": 128}, ...}: one
// for each CUtensorMap parameter of the signature.
void read_tensor_maps(PuzzleSpec& s, const SpecReader& r) {
  const json& d = r.doc_;
  for (const KernelParam& p : s.params) {
    if (p.role != ParamRole::a_map && p.role != ParamRole::b_map && p.role != ParamRole::c_map) continue;
    const std::string field = "tensor_maps." + p.name;
    if (!d.contains("tensor_maps") || !d.at("tensor_maps").contains(p.name))
      r.fail(field, "the signature takes the tensor map " + p.name + ": say what it maps");
    const json& m = d.at("tensor_maps").at(p.name);
    PuzzleSpec::TensorMapParam t;
    t.param = p.name;
    std::string matrix = r.text(m, "matrix", field + ".");
    if (matrix != std::string(1, p.name[0])) r.fail(field + ".matrix", "must be \"" + p.name.substr(0, 1) + "\"");
    t.matrix = matrix[0];
    t.box = r.texts(m, "box", field + ".");
    if (t.box.size() != 2) r.fail(field + ".box", "must be [columns, rows]");
    const json& swizzle = r.at(m, "swizzle", field + ".");
    t.swizzle_bytes = static_cast<unsigned>(r.integer(swizzle, field + ".swizzle"));
    if (t.swizzle_bytes != 0 && t.swizzle_bytes != 32 && t.swizzle_bytes != 64 && t.swizzle_bytes != 128)
      r.fail(field + ".swizzle", "must be 0, 32, 64 or 128 (bytes)");
    s.tensor_maps.push_back(t);
  }
}

// "cluster": [2, 1] or ["CLUSTER_M", 1]: the thread block cluster's shape, whole numbers or
// formulas (stored as formulas), on GPUs that have clusters.
void read_cluster(PuzzleSpec& s, const json& launch, const SpecReader& r) {
  if (!launch.contains("cluster")) return;
  const std::string field = "launch.cluster";
  const json& v = launch.at("cluster");
  if (!v.is_array() || v.empty() || v.size() > 3)
    r.fail(field, "one to three whole numbers or formulas, x first: [2, 1] or [\"CLUSTER_M\", 1]");
  for (const json& item : v) {
    if (item.is_string()) {
      s.launch.cluster.push_back(item.get<std::string>());
    } else {
      long long n = r.integer(item, field);
      if (n < 1) r.fail(field, "every dimension of a cluster is at least 1");
      s.launch.cluster.push_back(std::to_string(n));
    }
  }
  if (s.requires_gpu < 90)
    r.fail(field, "thread block clusters need a Hopper GPU or newer: set requires_gpu to sm_90 or sm_90a");
}

PuzzleSpec read(const SpecReader& r) {
  const json& d = r.doc_;
  PuzzleSpec s;
  s.number = static_cast<int>(r.integer(r.at(d, "number", ""), "number"));
  s.id = r.text(d, "id");
  s.title = r.text(d, "title");
  s.learn = r.text(d, "learn");
  s.computes = r.text(d, "computes");
  s.signature = r.text(d, "signature");
  read_signature(s, r);
  s.kernels = r.texts(d, "kernels");
  if (s.kernels.empty()) r.fail("kernels", "name at least one kernel");
  std::string gpu = r.optional_text(d, "requires_gpu");
  if (!gpu.empty()) {
    std::size_t digits = gpu.rfind("sm_", 0) == 0 ? gpu.find_first_not_of("0123456789", 3) : 0;
    std::string number = gpu.substr(3, digits == std::string::npos ? std::string::npos : digits - 3);
    std::string rest = digits == std::string::npos ? "" : gpu.substr(digits);
    if (gpu.rfind("sm_", 0) != 0 || number.empty() || !(rest.empty() || rest == "a"))
      r.fail("requires_gpu", "write sm_80, sm_90a, ...");
    s.requires_gpu = static_cast<unsigned>(std::stoul(number));
    s.requires_gpu_specific = rest == "a";
  }
  if (d.contains("b_is_transpose_of_a")) s.b_is_transpose_of_a = r.at(d, "b_is_transpose_of_a", "").get<bool>();

  std::string epilogue = r.optional_text(d, "epilogue");
  bool has_alpha = std::any_of(s.params.begin(), s.params.end(), [](const KernelParam& p) { return p.role == ParamRole::alpha; });
  if (epilogue == "relu") s.epilogue = Epilogue::relu;
  else if (epilogue == "alpha_beta") s.epilogue = Epilogue::alpha_beta;
  else if (!epilogue.empty()) r.fail("epilogue", "must be relu or alpha_beta");
  if ((s.epilogue == Epilogue::alpha_beta) != has_alpha) r.fail("epilogue", "alpha_beta needs alpha and beta in the signature, and only it");

  if (d.contains("constants")) {
    for (const auto& [name, value] : r.at(d, "constants", "").items()) s.constants[name] = r.integer(value, "constants." + name);
  }
  read_tensor_maps(s, r);
  const json& launch = r.at(d, "launch", "");
  s.launch.block = r.texts(launch, "block", "launch.");
  s.launch.grid = r.texts(launch, "grid", "launch.");
  if (s.launch.block.empty() || s.launch.block.size() > 3 || s.launch.grid.empty() || s.launch.grid.size() > 3)
    r.fail("launch", "block and grid have one to three formulas each");
  s.launch.dynamic_shared_bytes = r.optional_text(launch, "dynamic_shared_bytes");
  read_cluster(s, launch, r);
  s.output_tile = r.texts(d, "output_tile");
  if (s.output_tile.size() != 2) r.fail("output_tile", "must be [rows, columns]");

  const json& cases = r.at(d, "cases", "");
  s.cases.worked = r.dims(r.at(cases, "worked", "cases."), s.square, "cases.worked");
  s.cases.cpu = r.dims_list(cases, "cpu", s.square, "cases.");
  s.cases.gpu = r.dims_list(cases, "gpu", s.square, "cases.");
  if (cases.contains("max")) s.cases.max = static_cast<long>(r.integer(cases.at("max"), "cases.max"));

  if (d.contains("limits")) {
    const json& limits = d.at("limits");
    if (limits.contains("global_loads_per_thread")) {
      const json& l = limits.at("global_loads_per_thread");
      s.limits.global_loads_per_thread = Limit{r.text(l, "max", "limits.global_loads_per_thread."),
                                               r.text(l, "why", "limits.global_loads_per_thread.")};
    }
    if (limits.contains("shared_bank_conflicts")) {
      const json& l = limits.at("shared_bank_conflicts");
      s.limits.bank_conflict_ways = static_cast<int>(r.integer(r.at(l, "max_ways", "limits.shared_bank_conflicts."), "limits.shared_bank_conflicts.max_ways"));
      s.limits.bank_conflict_why = r.text(l, "why", "limits.shared_bank_conflicts.");
    }
    if (limits.contains("global_sectors_per_request")) {
      const json& l = limits.at("global_sectors_per_request");
      const json& max = r.at(l, "max", "limits.global_sectors_per_request.");
      if (!max.is_number()) r.fail("limits.global_sectors_per_request.max", "must be a number");
      s.limits.sectors_per_request = max.get<double>();
      s.limits.sectors_why = r.text(l, "why", "limits.global_sectors_per_request.");
    }
  }
  if (d.contains("bench")) {
    const json& bench = d.at("bench");
    s.bench.shapes = r.dims_list(bench, "shapes", s.square, "bench.");
    s.bench.baseline = r.text(bench, "baseline", "bench.");
    if (s.bench.baseline != "sgemm" && s.bench.baseline != "hgemm") r.fail("bench.baseline", "must be sgemm or hgemm");
    if (bench.contains("target_percent_of_cublas")) {
      const json& t = bench.at("target_percent_of_cublas");
      if (!t.is_number()) r.fail("bench.target_percent_of_cublas", "must be a number");
      s.bench.target_percent = t.get<double>();
    }
    if (bench.contains("target_at") && bench.at("target_at") == "every") {
      s.bench.target_everywhere = true;
    } else if (bench.contains("target_at")) {
      Dims at = r.dims(bench.at("target_at"), s.square, "bench.target_at");
      if (std::find(s.bench.shapes.begin(), s.bench.shapes.end(), at) == s.bench.shapes.end())
        r.fail("bench.target_at", "must be one of bench.shapes");
      s.bench.target_at = at;
    }
  }
  s.guard_hint = r.text(d, "guard_hint");
  s.hints = r.texts(d, "hints");
  if (s.hints.empty()) r.fail("hints", "give at least one hint");

  // Every formula must evaluate at the worked example, so a typo fails at once.
  Variables v = s.variables(s.cases.worked);
  v["SMS"] = 1;  // launch formulas may size a grid by the device
  auto check = [&](const std::string& formula, const std::string& field) {
    try {
      evaluate(formula, v);
    } catch (const engine::Error& e) {
      r.fail(field, e.what());
    }
  };
  for (const auto& f : s.launch.block) check(f, "launch.block");
  for (const auto& f : s.launch.grid) check(f, "launch.grid");
  // A cluster's dimensions are whole and at least 1 at every size the checker launches.
  auto cluster_at = [&](const Dims& d) {
    Variables at = s.variables(d);
    at["SMS"] = 1;
    for (const auto& f : s.launch.cluster) {
      double value = 0;
      try {
        value = evaluate(f, at);
      } catch (const engine::Error& e) {
        r.fail("launch.cluster", e.what());
      }
      if (value < 1 || value != std::floor(value)) {
        std::ostringstream number;
        number << value;
        r.fail("launch.cluster", "'" + f + "' is " + number.str() + " at " + s.size_words(d) +
                                     "; every dimension of a cluster is a whole number, at least 1");
      }
    }
  };
  cluster_at(s.cases.worked);
  for (const auto* list : {&s.cases.cpu, &s.cases.gpu, &s.bench.shapes})
    for (const Dims& d : *list) cluster_at(d);
  if (!s.launch.dynamic_shared_bytes.empty()) check(s.launch.dynamic_shared_bytes, "launch.dynamic_shared_bytes");
  for (const auto& f : s.output_tile) check(f, "output_tile");
  if (s.limits.global_loads_per_thread) check(s.limits.global_loads_per_thread->max, "limits.global_loads_per_thread.max");
  for (const auto& t : s.tensor_maps)
    for (const auto& f : t.box) check(f, "tensor_maps." + t.param + ".box");
  auto meets_map_rule = [&](const std::vector<Dims>& list, const std::string& field) {
    for (const Dims& c : list)
      if (!s.tensor_map_problem(c).empty()) r.fail(field, s.tensor_map_problem(c));
  };
  meets_map_rule({s.cases.worked}, "cases.worked");
  meets_map_rule(s.cases.cpu, "cases.cpu");
  meets_map_rule(s.cases.gpu, "cases.gpu");
  meets_map_rule(s.bench.shapes, "bench.shapes");
  return s;
}

std::string dim_text(long v) { return std::to_string(v); }

}  // namespace

const char* to_string(ElementType type) { return type == ElementType::f32 ? "float" : "__half"; }
std::size_t size_of(ElementType type) { return type == ElementType::f32 ? 4 : 2; }

std::string PuzzleSpec::kernel_name(const std::string& kernel) { return trim(kernel.substr(0, kernel.find('<'))); }

Variables PuzzleSpec::variables(const Dims& d) const {
  Variables v;
  for (const auto& [name, value] : constants) v[name] = static_cast<double>(value);
  v["m"] = static_cast<double>(d.m);
  v["n"] = static_cast<double>(d.n);
  v["k"] = static_cast<double>(d.k);
  if (!size_name.empty()) v[size_name] = static_cast<double>(d.n);
  return v;
}

std::string PuzzleSpec::tensor_map_problem(const Dims& d) const {
  for (const TensorMapParam& t : tensor_maps) {
    long columns = t.matrix == 'a' ? d.k : d.n;
    long element = t.matrix == 'c' ? 4 : 2;  // floats, halves
    if ((columns * element) % 16 != 0)
      return size_words(d) + ": " + std::string(t.matrix == 'a' ? "k" : "n") + " must be a multiple of " +
             std::to_string(16 / element) + ", so that each row of " + std::string(1, t.matrix) +
             " is a multiple of 16 bytes, as tensor maps require";
  }
  return "";
}

engine::LaunchConfig PuzzleSpec::launch_for(const Dims& d, const engine::DeviceLimits& device) const {
  Variables v = variables(d);
  v["SMS"] = static_cast<double>(device.multiprocessors);
  auto dim3_of = [&](const std::vector<std::string>& formulas) {
    unsigned xyz[3] = {1, 1, 1};
    for (std::size_t i = 0; i < formulas.size(); ++i) {
      double value = evaluate(formulas[i], v);
      xyz[i] = value < 0 ? 0u : static_cast<unsigned>(std::llround(value));
    }
    return engine::Dim3(xyz[0], xyz[1], xyz[2]);
  };
  engine::LaunchConfig c;
  c.grid = dim3_of(launch.grid);
  c.block = dim3_of(launch.block);
  c.cluster = dim3_of(launch.cluster);  // none: (1,1,1), no clusters
  if (!launch.dynamic_shared_bytes.empty())
    c.dynamic_shared_bytes = static_cast<std::size_t>(std::llround(evaluate(launch.dynamic_shared_bytes, v)));
  return c;
}

std::string PuzzleSpec::formula_words(const std::string& formula) const {
  Variables named;  // constants only: the sizes stay as letters
  for (const auto& [name, value] : constants) named[name] = static_cast<double>(value);
  return fold_constants(formula, named);
}

std::string PuzzleSpec::launch_words() const {
  auto join = [&](const std::vector<std::string>& formulas) {
    std::string s;
    for (std::size_t i = 0; i < formulas.size(); ++i) s += (i ? " x " : "") + formula_words(formulas[i]);
    return s;
  };
  std::string grid = join(launch.grid);
  std::string words = "blocks of " + join(launch.block) + " threads, ";
  words += grid == "1" ? "a single block" : "a grid of " + grid + " blocks";
  if (std::regex_search(grid, std::regex("\\bSMS\\b")))
    words += " (SMS: the device's number of multiprocessors)";
  if (!launch.cluster.empty()) {
    std::string shape;
    for (std::size_t i = 0; i < launch.cluster.size(); ++i) shape += (i ? "," : "") + formula_words(launch.cluster[i]);
    words += ", cluster (" + (launch.cluster.size() == 1 ? shape + ",1" : shape) + ")";
  }
  if (!launch.dynamic_shared_bytes.empty())
    words += ", " + formula_words(launch.dynamic_shared_bytes) + " bytes of dynamic shared memory";
  return words;
}

std::uint64_t PuzzleSpec::load_budget(const Dims& d) const {
  if (!limits.global_loads_per_thread) return 0;
  return static_cast<std::uint64_t>(std::llround(evaluate(limits.global_loads_per_thread->max, variables(d))));
}

std::pair<long, long> PuzzleSpec::tile_for(const Dims& d) const {
  Variables v = variables(d);
  return {std::max(1L, static_cast<long>(std::llround(evaluate(output_tile[0], v)))),
          std::max(1L, static_cast<long>(std::llround(evaluate(output_tile[1], v))))};
}

std::string PuzzleSpec::size_words(const Dims& d) const {
  if (square) return size_name + " = " + dim_text(d.n);
  return "m = " + dim_text(d.m) + ", n = " + dim_text(d.n) + ", k = " + dim_text(d.k);
}

PuzzleSpec parse_spec(const std::string& json_text, const std::string& file_name) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::exception& e) {
    throw engine::Error(file_name + ": not valid JSON: " + e.what());
  }
  try {
    return read(SpecReader(doc, file_name));
  } catch (const json::exception& e) {
    throw engine::Error(file_name + ": " + e.what());
  }
}

namespace {

// Set by override_constants() before the table is first read: puzzle id -> constant -> value.
std::map<std::string, std::map<std::string, long long>>& constant_overrides() {
  static std::map<std::string, std::map<std::string, long long>> overrides;
  return overrides;
}
bool table_built = false;

}  // namespace

std::string override_constants(const std::string& id, const std::map<std::string, long long>& values) {
  if (values.empty()) return "";
  if (table_built) return "the constants of " + id + " were overridden after the specs were read";
  constant_overrides()[id] = values;
  for (const PuzzleSpec& p : puzzle_table()) {
    if (p.id != id) continue;
    for (const auto& [name, value] : values) {
      (void)value;
      if (!p.constants.count(name))
        return "this checker was built with the constant " + name + ", which " + id + "'s spec does not have";
    }
    return "";
  }
  return "this checker was built for the puzzle " + id + ", which no spec describes";
}

const std::vector<PuzzleSpec>& puzzle_table() {
  static const std::vector<PuzzleSpec> table = [] {
    std::vector<PuzzleSpec> t;
    for (const EmbeddedSpec& e : embedded_specs()) {
      t.push_back(parse_spec(e.text, e.file));
      auto o = constant_overrides().find(t.back().id);
      if (o == constant_overrides().end()) continue;
      for (const auto& [name, value] : o->second)  // only the spec's own constants (checked above)
        if (t.back().constants.count(name)) t.back().constants[name] = value;
    }
    table_built = true;
    std::sort(t.begin(), t.end(), [](const PuzzleSpec& a, const PuzzleSpec& b) { return a.number < b.number; });
    return t;
  }();
  return table;
}

const PuzzleSpec& find_puzzle(const std::string& id) {
  for (const PuzzleSpec& p : puzzle_table())
    if (p.id == id) return p;
  throw engine::Error("no puzzle is called " + id);
}

}  // namespace checker
