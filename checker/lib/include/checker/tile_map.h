// A map of a kernel's output by block tile: one character per tile that one block computes
// (spec.tile_for), so the pattern of a mistake shows at a glance: "the last column of tiles
// is wrong" points at a guard, "every other tile row" at an index. Large outputs shrink to
// several tiles per character.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/matrices.h"
#include "checker/output.h"
#include "engine/dim.h"

namespace checker {

// Marks, from the mildest to the one that wins when a character covers several tiles.
enum class TileMark : char { right = '.', wrong = 'X', unwritten = '?', out_of_bounds = '!' };

struct TileMap {
  long tile_rows = 1, tile_cols = 1;          // elements of c per tile
  long tiles_down = 0, tiles_across = 0;      // tiles in c
  long group_down = 1, group_across = 1;      // tiles per character, when shrunk
  std::vector<std::string> lines;             // the marks, one string per character row
  bool shrunk() const { return group_down > 1 || group_across > 1; }
  // True when every character carries the same mark: the map would show no pattern.
  bool uniform() const;
  bool has(TileMark mark) const;
};

// Which tile of c a block computes: (tile row, tile column). A 2-D grid matching the tiles
// maps block (x, y) to tile row y, column x; otherwise blocks are numbered as CUDA numbers
// them (x fastest) and tiles row by row. nullopt for a block outside the tiles.
std::optional<std::pair<long, long>> tile_of_block(const engine::Dim3& block, const engine::Dim3& grid,
                                                   long tiles_down, long tiles_across);

// `tile`: rows and columns of c per block; `out_of_bounds_blocks`: blocks that accessed
// memory out of bounds (from the findings); `grid`: the launch's grid. At most `max_across`
// characters per line and `max_down` lines: beyond that, several tiles share a character.
TileMap make_tile_map(const Comparison& c, std::pair<long, long> tile,
                      const std::vector<engine::Dim3>& out_of_bounds_blocks, const engine::Dim3& grid,
                      long max_across = 64, long max_down = 24);

// The legend, a ruler of column numbers, and the map with row numbers, ready to print.
std::vector<std::string> render_tile_map(const TileMap& map, const std::string& output_name, const Style& style);

}  // namespace checker
