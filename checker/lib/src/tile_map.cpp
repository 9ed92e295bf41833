#include "checker/tile_map.h"

#include <algorithm>
#include <cstdio>

namespace checker {
namespace {

int severity(char mark) {
  switch (static_cast<TileMark>(mark)) {
    case TileMark::right: return 0;
    case TileMark::wrong: return 1;
    case TileMark::unwritten: return 2;
    case TileMark::out_of_bounds: return 3;
  }
  return 0;
}

char worse(char a, char b) { return severity(b) > severity(a) ? b : a; }

long ceil_div(long a, long b) { return (a + b - 1) / b; }

std::string coloured(char mark, const Style& st) {
  std::string s(1, mark);
  switch (static_cast<TileMark>(mark)) {
    case TileMark::right: return st.green(s);
    case TileMark::wrong: return st.red(s);
    case TileMark::unwritten: return st.yellow(s);
    case TileMark::out_of_bounds: return st.bold(st.red(s));
  }
  return s;
}

std::string count_words(long count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

}  // namespace

bool TileMap::uniform() const {
  char first = lines.empty() || lines[0].empty() ? '.' : lines[0][0];
  for (const std::string& line : lines)
    if (line.find_first_not_of(first) != std::string::npos) return false;
  return true;
}

bool TileMap::has(TileMark mark) const {
  for (const std::string& line : lines)
    if (line.find(static_cast<char>(mark)) != std::string::npos) return true;
  return false;
}

std::optional<std::pair<long, long>> tile_of_block(const engine::Dim3& block, const engine::Dim3& grid,
                                                   long tiles_down, long tiles_across) {
  if (grid.z == 1 && static_cast<long>(grid.x) == tiles_across && static_cast<long>(grid.y) == tiles_down)
    return std::make_pair(static_cast<long>(block.y), static_cast<long>(block.x));
  auto linear = static_cast<long long>(grid.linear(block));
  if (linear >= static_cast<long long>(tiles_down) * tiles_across) return std::nullopt;
  return std::make_pair(static_cast<long>(linear / tiles_across), static_cast<long>(linear % tiles_across));
}

TileMap make_tile_map(const Comparison& c, std::pair<long, long> tile,
                      const std::vector<engine::Dim3>& out_of_bounds_blocks, const engine::Dim3& grid,
                      long max_across, long max_down) {
  TileMap map;
  const long rows = c.dims.m, cols = c.dims.n;
  map.tile_rows = std::max(1L, tile.first);
  map.tile_cols = std::max(1L, tile.second);
  map.tiles_down = ceil_div(rows, map.tile_rows);
  map.tiles_across = ceil_div(cols, map.tile_cols);
  map.group_down = std::max(1L, ceil_div(map.tiles_down, max_down));
  map.group_across = std::max(1L, ceil_div(map.tiles_across, max_across));
  const long chars_down = ceil_div(map.tiles_down, map.group_down);
  const long chars_across = ceil_div(map.tiles_across, map.group_across);
  map.lines.assign(static_cast<std::size_t>(chars_down),
                   std::string(static_cast<std::size_t>(chars_across), static_cast<char>(TileMark::right)));

  const long elements_down = map.tile_rows * map.group_down, elements_across = map.tile_cols * map.group_across;
  for (long r = 0; r < rows; ++r) {
    std::string& line = map.lines[static_cast<std::size_t>(r / elements_down)];
    const char* marks = &c.marks[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols)];
    for (long col = 0; col < cols; ++col) {
      char m = marks[col];
      if (m == '.') continue;
      char& cell = line[static_cast<std::size_t>(col / elements_across)];
      cell = worse(cell, m == '?' ? static_cast<char>(TileMark::unwritten) : static_cast<char>(TileMark::wrong));
    }
  }
  for (const engine::Dim3& block : out_of_bounds_blocks) {
    auto at = tile_of_block(block, grid, map.tiles_down, map.tiles_across);
    if (!at) continue;
    char& cell = map.lines[static_cast<std::size_t>(at->first / map.group_down)]
                          [static_cast<std::size_t>(at->second / map.group_across)];
    cell = static_cast<char>(TileMark::out_of_bounds);
  }
  return map;
}

std::vector<std::string> render_tile_map(const TileMap& map, const std::string& output_name, const Style& st) {
  std::string tile = std::to_string(map.tile_rows) + " x " + std::to_string(map.tile_cols);
  std::string head = output_name + " by block tile (" + tile + " elements each";
  if (map.shrunk())
    head += "; " + count_words(map.tiles_down, "tile", "tiles") + " down, " +
            count_words(map.tiles_across, "tile", "tiles") + " across, so each character is " +
            std::to_string(map.group_down) + " x " + std::to_string(map.group_across) +
            " tiles and shows the worst of them";
  head += "): " + coloured('.', st) + " right";
  if (map.has(TileMark::wrong)) head += ", " + coloured('X', st) + " wrong";
  if (map.has(TileMark::unwritten)) head += ", " + coloured('?', st) + " never written";
  if (map.has(TileMark::out_of_bounds)) head += ", " + coloured('!', st) + " its block accessed memory out of bounds";
  std::vector<std::string> out{head};

  const long elements_down = map.tile_rows * map.group_down, elements_across = map.tile_cols * map.group_across;
  const long last_row = (static_cast<long>(map.lines.size()) - 1) * elements_down;
  char label[48];
  const int label_width = std::snprintf(label, sizeof label, "row %ld ", last_row);
  // Column numbers every 8 characters: wide enough for any column a puzzle allows.
  std::string ruler(static_cast<std::size_t>(label_width), ' ');
  const std::size_t across = map.lines.empty() ? 0 : map.lines[0].size();
  for (std::size_t i = 0; i < across; i += 8) {
    std::string number = std::to_string(static_cast<long>(i) * elements_across);
    ruler.resize(static_cast<std::size_t>(label_width) + i, ' ');
    ruler += number;
  }
  out.push_back(st.dim(ruler));
  for (std::size_t r = 0; r < map.lines.size(); ++r) {
    std::snprintf(label, sizeof label, "row %*ld ", label_width - 5, static_cast<long>(r) * elements_down);
    std::string line = st.dim(label);
    for (char mark : map.lines[r]) line += coloured(mark, st);
    out.push_back(line);
  }
  return out;
}

}  // namespace checker
