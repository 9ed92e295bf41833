// What a puzzle is, as data. One table (puzzle_table.cpp) holds every puzzle: adding a
// puzzle means a row there, a stub, a solution and a doc page.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend.h"

namespace checker {

// The two kernel signatures of the course so far.
enum class KernelShape {
  matmul,      // kernel(const float* a, const float* b, float* c, int n): c = a · b
  single_aat,  // kernel(float* out, const float* a, const float* b, int size): out = a · aᵀ
};

struct PuzzleSpec {
  int number;
  std::string id;      // "p04_tiled": file names, executable and doc page
  std::string title;   // "Tiled matrix multiplication"
  std::string kernel;  // "matmul_tiled"
  KernelShape shape;
  std::string output_name;  // "c" or "out": what the kernel calls its output
  std::string size_name;    // "n" or "size"

  int worked_n;                  // the readable first case
  std::vector<int> cpu_sizes;    // random cases on the CPU backend
  std::vector<int> gpu_sizes;    // random cases on the GPU backend
  int max_n;                     // largest size the puzzle allows; 0: none

  // How the checker launches the kernel for size n, and the same in words.
  engine::LaunchConfig (*launch)(int n);
  std::string launch_words;

  // Global loads a single thread may make, on the instrumented CPU backend; 0: no budget.
  std::uint64_t (*load_budget)(int n);
  std::string budget_formula;  // "2·⌈n/16⌉"
  std::string budget_why;

  std::string guard_hint;  // the fix for an out-of-bounds access, in this puzzle's names
};

const std::vector<PuzzleSpec>& puzzle_table();
// The spec with this id; throws engine::Error if there is none.
const PuzzleSpec& find_puzzle(const std::string& id);

}  // namespace checker
