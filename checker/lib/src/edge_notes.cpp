#include "edge_notes.h"

#include <map>
#include <tuple>
#include <vector>

#include "checker/explain.h"
#include "profile_report.h"

namespace checker {
namespace {

// "1,536"
std::string grouped(std::uint64_t v) { return count_words(static_cast<double>(v)); }

// "column 64, row 96 of a 100 x 72 tensor": the first box's corner, in the tensor's own terms
// (a 2-D tensor map's innermost dimension is a row-major matrix's columns).
std::string corner_words(const engine::TensorEdgeNote& n) {
  const std::size_t rank = n.dims.size();
  if (rank == 1)
    return "element " + std::to_string(n.first_box[0]) + " of a " + grouped(n.dims[0]) + "-element tensor";
  if (rank == 2)
    return "column " + std::to_string(n.first_box[0]) + ", row " + std::to_string(n.first_box[1]) + " of a " +
           std::to_string(n.dims[1]) + " x " + std::to_string(n.dims[0]) + " tensor";
  std::string at, shape;
  for (std::size_t d = 0; d < rank; ++d) {
    at += (d ? ", " : "") + std::to_string(n.first_box[d]);
    shape += (d ? " x " : "") + std::to_string(n.dims[d]);
  }
  return "coordinates (" + at + ") of a " + shape + " tensor (innermost dimension first)";
}

std::string plural(std::uint64_t count, const std::string& one, const std::string& many) {
  return grouped(count) + " " + (count == 1 ? one : many);
}

}  // namespace

std::vector<engine::TensorEdgeNote> merged_tensor_edges(const engine::LaunchResult& r) {
  // By line (then file and call chain, as where_in_source words them), loads before stores.
  using Key = std::tuple<int, std::string, std::vector<int>, bool, bool, std::string>;
  std::map<Key, engine::TensorEdgeNote> merged;
  for (const engine::TensorEdgeNote& n : r.tensor_edges) {
    const Key key{n.at.line, n.at.file, n.at.called_from, n.at.approximate, n.store, n.tensor};
    auto [it, added] = merged.try_emplace(key, n);
    if (added) continue;
    engine::TensorEdgeNote& m = it->second;
    if (n.first_block < m.first_block) {
      m.first_block = n.first_block;
      m.first_box = n.first_box;
    }
    m.boxes += n.boxes;
    m.boxes_over_edge += n.boxes_over_edge;
    m.elements_outside += n.elements_outside;
  }
  std::vector<engine::TensorEdgeNote> notes;
  for (const auto& [key, n] : merged) notes.push_back(n);
  return notes;
}

std::vector<std::string> explain_tensor_edges(const engine::LaunchResult& r) {
  std::vector<std::string> lines;
  for (const engine::TensorEdgeNote& n : merged_tensor_edges(r)) {
    const std::string tensor = n.tensor.empty() ? "the tensor" : n.tensor;
    const std::string where = where_in_source(n.at);
    const std::string boxes =
        n.boxes == 1 ? "their only box" : grouped(n.boxes_over_edge) + " of " + grouped(n.boxes) + " boxes";
    std::string s = std::string("Note: the tensor ") + (n.store ? "stores" : "copies") +
                    (where.empty() ? "" : " at " + where) + " hung over the edge of " + tensor + " in " + boxes +
                    " (first at " + corner_words(n) + "): they ";
    s += n.store ? "left out " + plural(n.elements_outside, "element", "elements") + " outside " + tensor
                 : "filled " + plural(n.elements_outside, "element", "elements") + " with zeros";
    s += ", which is how this kernel handles the edges.";
    lines.push_back(s);
  }
  if (r.tensor_edges_truncated)
    lines.push_back("Note: more tensor copies hung over their tensor's edges than the CPU backend keeps notes for.");
  return lines;
}

}  // namespace checker
