// How a large wrong output is shown: a window of values around its first wrong element,
// and a map by block tile that shows the pattern of the mistake.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "backend_fixture.h"
#include "checker/tile_map.h"
#include "checker/value_window.h"
#include "process.h"

using checker::Comparison;
using checker::Dims;
using checker::TileMark;
using test_support::run_program;

namespace {

const checker::Style kPlain(false);

// A comparison of an m x n output where `bad(row, col)` gives each element's mark.
template <typename Marks>
Comparison comparison(long m, long n, Marks bad) {
  Comparison c;
  c.dims = Dims{m, n, 1};
  c.marks.assign(static_cast<std::size_t>(m * n), '.');
  for (long r = 0; r < m; ++r)
    for (long col = 0; col < n; ++col) {
      char mark = bad(r, col);
      c.marks[static_cast<std::size_t>(r * n + col)] = mark;
      c.wrong += mark == 'X';
      c.unwritten += mark == '?';
    }
  return c;
}

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }

bool has_line(const std::string& output, const std::string& line) {
  return output.find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("the tile map has one character per block tile, rectangular outputs and tiles included") {
  test_support::note_started();
  // 40 x 100 with 16 x 32 tiles: 3 tiles down, 4 across; the last column of tiles is wrong.
  Comparison c = comparison(40, 100, [](long, long col) { return col >= 96 ? 'X' : '.'; });
  checker::TileMap map = checker::make_tile_map(c, {16, 32}, {}, engine::Dim3(4, 3));
  CHECK(map.tiles_down == 3);
  CHECK(map.tiles_across == 4);
  CHECK_FALSE(map.shrunk());
  CHECK(map.lines == std::vector<std::string>{"...X", "...X", "...X"});
  CHECK_FALSE(map.uniform());
  std::vector<std::string> text = checker::render_tile_map(map, "c", kPlain);
  REQUIRE(text.size() == 5);
  CHECK(text[0] == "c by block tile (16 x 32 elements each): . right, X wrong");
  CHECK(text[1] == "       0");
  CHECK(text[2] == "row  0 ...X");
  CHECK(text[4] == "row 32 ...X");
}

TEST_CASE("a never-written element outweighs a wrong one, and an out-of-bounds block outweighs both") {
  test_support::note_started();
  Comparison c = comparison(32, 64, [](long r, long col) {
    if (r == 0 && col == 0) return 'X';
    if (r == 1 && col == 1) return '?';
    return col >= 48 ? 'X' : '.';
  });
  // Block (1,1) of a 4 x 2 grid computes tile row 1, column 1.
  checker::TileMap map = checker::make_tile_map(c, {16, 16}, {engine::Dim3(1, 1, 0)}, engine::Dim3(4, 2));
  CHECK(map.lines == std::vector<std::string>{"?..X", ".!.X"});
  CHECK(checker::render_tile_map(map, "out", kPlain)[0] ==
        "out by block tile (16 x 16 elements each): . right, X wrong, ? never written, ! its block accessed "
        "memory out of bounds");
}

TEST_CASE("blocks of a 1-D grid map to tiles row by row") {
  test_support::note_started();
  // Puzzle 2: one block per row of c, so a 1 x n tile per block and a grid of n blocks.
  auto at = checker::tile_of_block(engine::Dim3(7, 0, 0), engine::Dim3(100), 100, 1);
  REQUIRE(at.has_value());
  CHECK(at->first == 7);
  CHECK(at->second == 0);
  CHECK_FALSE(checker::tile_of_block(engine::Dim3(100, 0, 0), engine::Dim3(101), 100, 1).has_value());
}

TEST_CASE("a map with more than 64 tiles across or 24 down shrinks, and its legend says by how much") {
  test_support::note_started();
  // 1000 x 2000 in 16 x 16 tiles: 63 down, 125 across.
  Comparison c = comparison(1000, 2000, [](long r, long) { return r >= 992 ? '?' : '.'; });
  checker::TileMap map = checker::make_tile_map(c, {16, 16}, {}, engine::Dim3(125, 63));
  CHECK(map.group_down == 3);
  CHECK(map.group_across == 2);
  CHECK(map.lines.size() == 21);
  CHECK(map.lines[0].size() == 63);
  CHECK(map.lines[20] == std::string(63, '?'));
  CHECK(map.lines[19] == std::string(63, '.'));
  std::vector<std::string> text = checker::render_tile_map(map, "c", kPlain);
  CHECK(text[0] == "c by block tile (16 x 16 elements each; 63 tiles down, 125 tiles across, so each character is "
                   "3 x 2 tiles and shows the worst of them): . right, ? never written");
  CHECK(text[1].find("0       256     512") != std::string::npos);  // every 8 characters: 8 x 2 x 16 columns
  CHECK(text.back().rfind("row 960 ", 0) == 0);
}

TEST_CASE("the window of values stays inside the matrix and starts a little before the first bad element") {
  test_support::note_started();
  checker::WindowSpan w = checker::window_around(Dims{40, 40, 40}, 39 * 40 + 0);
  CHECK(w.row0 == 34);
  CHECK(w.rows == 6);
  CHECK(w.col0 == 0);
  CHECK(w.cols == 8);
  w = checker::window_around(Dims{50, 50, 50}, 0 * 50 + 16);
  CHECK(w.row0 == 0);
  CHECK(w.col0 == 14);
  w = checker::window_around(Dims{3, 200, 9}, 2 * 200 + 199);
  CHECK(w.rows == 3);
  CHECK(w.col0 == 192);
}

TEST_CASE("the window shows expected above actual, a wrong value marked *, one never written as ?") {
  test_support::note_started();
  Comparison c = comparison(2, 3, [](long r, long col) { return r == 1 ? (col == 0 ? 'X' : '?') : '.'; });
  checker::Reference ref{Dims{2, 3, 1}, {1, 2, 3, 4, 5, 6}, std::vector<double>(6, 0.0)};
  std::vector<float> out{1, 2, 3, 40, 0, 0};
  std::vector<std::string> text = checker::render_window(c, ref, out, "c", kPlain);
  REQUIRE(text.size() == 6);
  CHECK(text[0] == "All of c (expected above c; * wrong, ? never written):");
  CHECK(text[1] == "                 col 0  col 1  col 2");
  CHECK(text[2] == "row 0  expected    1.0    2.0    3.0");
  CHECK(text[3] == "       c           1.0    2.0    3.0");
  CHECK(text[4] == "row 1  expected    4.0    5.0    6.0");
  CHECK(text[5] == "       c          40.0*     ?      ?");
}

TEST_CASE("cpu: a large failing case shows the values around its first wrong element and a map by tile") {
  test_support::note_started();
  // The guard stops one row early: the last row of c is never written.
  auto r = run_program(bin("broken_p01_unwritten_edge"), {"--backend=cpu", "--size=40"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("  c around (row 39, col 0), its first element that is not right (expected above c; "
                      "* wrong, ? never written):") != std::string::npos);
  CHECK(r.output.find("  row 39  expected ") != std::string::npos);
  CHECK(r.output.find("          c               ?        ?        ?") != std::string::npos);
  CHECK(has_line(r.output, "  c by block tile (16 x 16 elements each): . right, ? never written"));
  CHECK(has_line(r.output, "  row  0 ..."));
  CHECK(has_line(r.output, "  row 16 ..."));
  CHECK(has_line(r.output, "  row 32 ???"));
}

TEST_CASE("cpu: the map shows which tiles are wrong: here all but the first, one tile wide") {
  test_support::note_started();
  auto r = run_program(bin("broken_p03_one_tile_wide"), {"--backend=cpu", "--size=50"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(has_line(r.output, "  row  0 .XXX"));
  CHECK(has_line(r.output, "  row 48 XXXX"));
  CHECK(r.output.find("c around (row 0, col 16)") != std::string::npos);
  CHECK(r.output.find("*") != std::string::npos);
}

TEST_CASE("cpu: the window and the map are shown for the first failing case only, and small cases stay whole") {
  test_support::note_started();
  auto r = run_program(bin("p04_tiled_stub"), {"--backend=cpu"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  auto count = [&](const std::string& s) {
    std::size_t n = 0;
    for (auto at = r.output.find(s); at != std::string::npos; at = r.output.find(s, at + 1)) ++n;
    return n;
  };
  CHECK(count("c around (row 0, col 0)") == 1);
  CHECK(count("Every tile of c (one per block) has elements never written.") == 1);
  CHECK(r.output.find("  expected: [40.0, 34.0, 28.0") != std::string::npos);  // the worked example, whole
}
