// Grid and block shapes for host code. Deliberately not CUDA's dim3, so that host code
// compiles the same with or without the CUDA toolkit.
#ifndef ENGINE_DIM_H_
#define ENGINE_DIM_H_

#include <cstdint>
#include <string>

namespace engine {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;

  constexpr Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}

  constexpr std::uint64_t count() const {
    return std::uint64_t{x} * std::uint64_t{y} * std::uint64_t{z};
  }
  constexpr bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }
  constexpr bool operator!=(const Dim3& o) const { return !(*this == o); }

  // "(3,1)" for an index into such a shape: z is shown only when it is not 0.
  std::string index_str() const {
    std::string s = "(" + std::to_string(x) + "," + std::to_string(y);
    if (z != 0) s += "," + std::to_string(z);
    return s + ")";
  }

  // Linear index of `i` inside a box of this shape (x fastest, as CUDA numbers threads).
  constexpr std::uint64_t linear(const Dim3& i) const {
    return i.x + std::uint64_t{x} * (i.y + std::uint64_t{y} * i.z);
  }
  constexpr Dim3 unlinear(std::uint64_t l) const {
    return Dim3(static_cast<unsigned>(l % x), static_cast<unsigned>((l / x) % y),
                static_cast<unsigned>(l / (std::uint64_t{x} * y)));
  }

  // "(3,1)" for 1- or 2-D shapes, "(3,1,2)" when z is used: what students see in messages.
  std::string str(bool force_3d = false) const {
    std::string s = "(" + std::to_string(x) + "," + std::to_string(y);
    if (z != 1 || force_3d) s += "," + std::to_string(z);
    return s + ")";
  }
};

// Where a CUDA thread sits: its block in the grid and its index in the block.
struct ThreadCoord {
  Dim3 block{0, 0, 0};
  Dim3 thread{0, 0, 0};

  // "thread (2,1) of block (0,0)"
  std::string str() const { return "thread " + thread.index_str() + " of block " + block.index_str(); }
};

}  // namespace engine

#endif  // ENGINE_DIM_H_
