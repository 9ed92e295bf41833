// One kernel of a puzzle, run through its cases on one backend: inputs, launch, and the
// judgement of each launch in words.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "checker/matrices.h"
#include "checker/options.h"
#include "checker/output.h"
#include "checker/puzzle.h"
#include "engine/backend.h"

namespace checker {

struct Case {
  std::string label;  // "worked example", "random, seed 2024"
  Dims dims;
  bool worked = false;
};

class KernelRun {
 public:
  // `image`: the kernel built for `backend`; `source`: the .cu file it was built from.
  KernelRun(const PuzzleSpec& spec, const Options& options, engine::Backend& backend,
            const engine::KernelImage& image, Style style);

  std::vector<Case> cases() const;
  void print_header(const std::string& backend_reason, const std::vector<Case>& list) const;
  // True when the case passed; sets stop() when no further case should run.
  bool run_case(const Case& c, std::size_t index, std::size_t count);

  bool stop() const { return stop_; }
  bool device_lost() const { return device_lost_; }

 private:
  std::vector<engine::ThreadOrder> orders_for(const Case& c, std::size_t index) const;
  double timeout_for(const Dims& d) const;
  bool judge(const Case& c, const Problem& p, const Reference& ref, const engine::LaunchResult& r,
             const std::vector<float>& out, const char* order_name);
  void print_paragraph(const std::string& text) const;

  const PuzzleSpec& spec_;
  const Options& opt_;
  engine::Backend& backend_;
  const engine::KernelImage& image_;
  Style st_;
  std::map<std::string, std::vector<long>> shared_shapes_;
  bool stop_ = false;
  bool device_lost_ = false;
};

}  // namespace checker
