#include "checker/matrices.h"

#include <cmath>
#include <cstring>
#include <algorithm>
#include <limits>
#include <thread>
#include <vector>

#include "cuda_cpu/compat/cuda_fp16.h"


namespace checker {
namespace {

constexpr std::uint32_t kUnwrittenBits = 0x7FC0DEADu;

// splitmix64: tiny, portable, and good enough for test matrices.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform() {  // [-1, 1), 24 random bits
    return static_cast<float>(next() >> 40) * (2.0f / 16777216.0f) - 1.0f;
  }
};

// Runs rows(first, last) over [0, rows) split across the machine's cores. The 2048³ cases
// on a GPU are checked against a double-precision product on the host: on one core that is
// seconds per case, longer than the GPU run it checks. Rows are independent, so each is
// still summed in the same order and the result does not depend on the number of threads.
template <typename RowRange>
void for_row_blocks(std::size_t rows, double multiply_adds, RowRange rows_fn) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (multiply_adds < 1e7 || threads == 1 || rows < 2) {  // too small to pay for a thread
    rows_fn(std::size_t{0}, rows);
    return;
  }
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, rows));
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(rows_fn, rows * t / threads, rows * (t + 1) / threads);
  for (std::thread& th : pool) th.join();
}

std::size_t count(long rows, long cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }

void round_inputs(const PuzzleSpec& spec, Problem& p) {
  if (spec.a_type == ElementType::f16)
    for (float& v : p.a) v = round_to_half(v);
  if (spec.b_type == ElementType::f16)
    for (float& v : p.b) v = round_to_half(v);
}

void transpose_a_into_b(const PuzzleSpec& spec, Problem& p) {
  if (!spec.b_is_transpose_of_a) return;
  std::size_t n = static_cast<std::size_t>(p.dims.n);
  p.b.resize(n * n);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) p.b[r * n + c] = p.a[c * n + r];
}

void prepare_output(const PuzzleSpec& spec, Problem& p, SplitMix64* rng) {
  std::size_t cells = count(p.dims.m, p.dims.n);
  if (spec.epilogue != Epilogue::alpha_beta) {
    p.c_in.assign(cells, unwritten_marker());
    return;
  }
  p.c_in.resize(cells);
  for (std::size_t i = 0; i < cells; ++i) p.c_in[i] = rng ? rng->uniform() : 1.0f;
}

}  // namespace

float unwritten_marker() {
  float f;
  std::memcpy(&f, &kUnwrittenBits, sizeof f);
  return f;
}

bool same_bits(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

float round_to_half(float v) { return __half2float(__float2half_rn(v)); }
std::uint16_t half_bits(float v) { return __half_as_ushort(__float2half_rn(v)); }

Problem worked_problem(const PuzzleSpec& spec, const Dims& d) {
  Problem p;
  p.dims = d;
  std::size_t na = count(d.m, d.k), nb = count(d.k, d.n);
  p.a.resize(na);
  for (std::size_t i = 0; i < na; ++i) p.a[i] = static_cast<float>(i);
  if (!spec.b_is_transpose_of_a) {
    p.b.resize(nb);  // ..., 3, 2, 1: not a itself, so swapping a and b shows
    for (std::size_t i = 0; i < nb; ++i) p.b[i] = static_cast<float>(nb - i);
  }
  transpose_a_into_b(spec, p);
  round_inputs(spec, p);
  if (spec.epilogue == Epilogue::alpha_beta) {
    p.alpha = 2.0f;  // whole numbers keep every expected value exact
    p.beta = 1.0f;
  }
  prepare_output(spec, p, nullptr);
  return p;
}

Problem random_problem(const PuzzleSpec& spec, const Dims& d, std::uint64_t seed) {
  Problem p;
  p.dims = d;
  SplitMix64 rng{seed * 1000003ull + static_cast<std::uint64_t>(d.m) * 7919u + static_cast<std::uint64_t>(d.n) * 31u +
                 static_cast<std::uint64_t>(d.k)};
  p.a.resize(count(d.m, d.k));
  for (float& v : p.a) v = rng.uniform();
  if (!spec.b_is_transpose_of_a) {
    p.b.resize(count(d.k, d.n));
    for (float& v : p.b) v = rng.uniform();
  }
  transpose_a_into_b(spec, p);
  round_inputs(spec, p);
  if (spec.epilogue == Epilogue::alpha_beta) {
    p.alpha = 1.25f;
    p.beta = -0.75f;
  }
  prepare_output(spec, p, &rng);
  return p;
}

Reference reference_result(const PuzzleSpec& spec, const Problem& p) {
  const std::size_t m = static_cast<std::size_t>(p.dims.m), n = static_cast<std::size_t>(p.dims.n),
                    k = static_cast<std::size_t>(p.dims.k);
  Reference ref;
  ref.dims = p.dims;
  ref.value.assign(m * n, 0.0);
  std::vector<double> magnitude(m * n, 0.0);
  // i-k-j order: the inner loop walks rows of b and c contiguously.
  for_row_blocks(m, static_cast<double>(m) * n * k, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      for (std::size_t kk = 0; kk < k; ++kk) {
        double aik = p.a[i * k + kk];
        const float* brow = &p.b[kk * n];
        double* crow = &ref.value[i * n];
        double* mrow = &magnitude[i * n];
        for (std::size_t j = 0; j < n; ++j) {
          double prod = aik * brow[j];
          crow[j] += prod;
          mrow[j] += std::fabs(prod);
        }
      }
  });
  // A float32 sum of k products is off by at most about k·2⁻²⁴·Σ|a·b| (each rounding adds
  // at most 2⁻²⁴ of the running magnitude); twice that leaves room for any order. Tensor
  // cores (half inputs) accumulate in float32 without IEEE rounding: allow 4× more.
  const double u = std::ldexp(1.0, spec.a_type == ElementType::f16 ? -22 : -24);
  ref.tolerance.resize(m * n);
  for (std::size_t i = 0; i < m * n; ++i) {
    double tol = 2.0 * (static_cast<double>(k) + 1.0) * u * magnitude[i];
    double v = ref.value[i];
    if (spec.epilogue == Epilogue::alpha_beta) {
      double c0 = p.c_in[i];
      v = p.alpha * v + p.beta * c0;
      tol = std::fabs(p.alpha) * tol + 4.0 * u * (std::fabs(p.alpha * ref.value[i]) + std::fabs(p.beta * c0));
    } else if (spec.epilogue == Epilogue::relu) {
      v = v > 0 ? v : 0.0;  // max(0, x) moves no value further from the truth
    }
    ref.value[i] = v;
    ref.tolerance[i] = tol + std::numeric_limits<float>::min();
  }
  return ref;
}

Comparison compare(const std::vector<float>& out, const std::vector<float>& before, const Reference& ref) {
  Comparison c;
  c.dims = ref.dims;
  c.marks.resize(out.size(), '.');
  for (std::size_t i = 0; i < out.size(); ++i) {
    bool right = std::fabs(static_cast<double>(out[i]) - ref.value[i]) <= ref.tolerance[i];
    if (right) continue;
    if (i < before.size() && same_bits(out[i], before[i])) {
      c.marks[i] = '?';
      if (c.first_unwritten.size() < 5) c.first_unwritten.push_back(i);
      ++c.unwritten;
    } else {
      c.marks[i] = 'X';
      if (c.first_wrong.size() < 5) c.first_wrong.push_back(i);
      ++c.wrong;
    }
  }
  return c;
}

}  // namespace checker
