#!/usr/bin/env python3
"""The speed figures of README.md and docs/ come from the committed runs (docs/dev/figures.md):
generated blocks that are up to date, no figure typed outside them, run files that read as
--bench-csv wrote them, and a plot drawn from the current run. tests/site/CMakeLists.txt registers
one CTest test per class (label: figures):

    python3 tests/site/test_figures.py StaleBlocks      # one class

Standard library only: no matplotlib, no MkDocs.
"""
import json
import shutil
import sys
import tempfile
import unittest
from xml.etree import ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))

from course import run_facts, site_facts, site_pages, speed_blocks, speed_plot  # noqa: E402

SPECS = site_pages.load_specs(ROOT / "checker" / "specs")
GOOD_CSV = (ROOT / run_facts.RUNS / "2026-11-23-h100-2" / "bench.csv").read_text(encoding="utf-8")
SVG = "{http://www.w3.org/2000/svg}"
RUN_JSON = {"date": "2026-11-24", "machine": "a GPU", "driver": "1", "cuda": "13.0",
            "command": "checker/run bench", "notes": "a test"}


def pages():
    """(name as the site names it, path) of README.md and every page under docs/."""
    out = [(site_pages.README, ROOT / "README.md")]
    return out + [(p.relative_to(ROOT / "docs").as_posix(), p) for p in sorted((ROOT / "docs").rglob("*.md"))]


def fake_root(csv_text=GOOD_CSV, info=None, name="2026-11-24-gpu"):
    """A course folder with one run, for the tests that break run files."""
    root = Path(tempfile.mkdtemp(prefix="figures-"))
    run = root / run_facts.RUNS / name
    run.mkdir(parents=True)
    (run / "run.json").write_text(json.dumps(info or RUN_JSON, indent=2) + "\n", encoding="utf-8")
    if csv_text is not None:
        (run / "bench.csv").write_text(csv_text, encoding="utf-8")
    return root


class StaleBlocks(unittest.TestCase):
    """Every generated block of README.md and docs/ is what checker/run docs --update would write."""

    def test_every_block_is_up_to_date(self):
        for name, path in pages():
            with self.subTest(page=name):
                _, problems = site_facts.regenerate(name, path.read_text(encoding="utf-8"), SPECS)
                if problems:  # whole, with the diff
                    self.fail(f"{path.relative_to(ROOT)}:\n" + "\n".join(problems))

    def test_the_readme_and_the_speed_page_show_the_current_run(self):
        current = run_facts.current(run_facts.read_runs(ROOT))
        for path in (ROOT / "README.md", ROOT / "docs" / "speed.md"):
            text = path.read_text(encoding="utf-8")
            self.assertIn("BEGIN GENERATED speed-summary: from " + current.csv_path(ROOT), text, path.name)

    def test_a_stale_figure_fails_with_a_diff(self):
        text = (ROOT / "docs" / "p06_register_tiling.md").read_text(encoding="utf-8")
        row = next(r for r in run_facts.current(run_facts.read_runs(ROOT)).rows
                   if r["puzzle"] == "p06_register_tiling" and r["cublas"] == "0")
        shown = run_facts.figure(row["percent_of_baseline"], "percent") + " %"
        self.assertIn(shown, text)
        _, problems = site_facts.regenerate("p06_register_tiling.md", text.replace(shown, "99.9 %", 1), SPECS)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("out of date with docs/dev/runs/", problems[0])
        self.assertIn("-| 4096 × 4096 × 4096 | `matmul_relu_register_tiled`", problems[0])
        self.assertIn("99.9 %", problems[0])

    def test_a_block_that_cannot_be_made_says_why(self):
        text = "<!-- BEGIN GENERATED speed-puzzle(p99): from x by checker/run docs --update -->\n<!-- END GENERATED -->"
        _, problems = site_facts.regenerate("speed.md", text, SPECS)
        self.assertEqual(len(problems), 1)
        self.assertIn("no puzzle 'p99'", problems[0])
        text = "<!-- BEGIN GENERATED log(README.md): from x by checker/run docs --update -->\n<!-- END GENERATED -->"
        self.assertIn("not a file under docs/dev/runs/", site_facts.regenerate("speed.md", text, SPECS)[1][0])


class LooseFigures(unittest.TestCase):
    """A speed figure outside a generated block is one that nothing keeps up to date."""

    def test_no_figure_outside_the_generated_blocks(self):
        for name, path in pages():
            with self.subTest(page=name):
                found = speed_blocks.loose_figures(path.read_text(encoding="utf-8"))
                self.assertEqual(found, [], f"{path.relative_to(ROOT)}: (line, figure) typed by hand; "
                                            "use a generated block (docs/dev/figures.md) or words")

    def test_what_counts_as_a_figure(self):
        text = "\n".join([
            "It runs at 44.3 % of cuBLAS,",           # 1
            "or 309.35 TFLOP/s, 12 GFLOP/s,",         # 2
            "in 0.444 ms and 65.9 µs.",               # 3
            "| p09 | 309.35 | 42.0 / 44.1 |",          # 4
            "`50 %` in code, 4096³ and BK = 16 are not figures.",  # 5
            "```", "12.5 % in a code block", "```",  # 6-8
            "<!-- BEGIN GENERATED measurements: from x by y -->", "| 1.5 |", "<!-- END GENERATED -->",  # 9-11
            "| a | 12 |",                              # 12: a whole number is a count, not a figure
        ])
        self.assertEqual(speed_blocks.loose_figures(text), [
            (1, "44.3 %"), (2, "309.35 TFLOP/s"), (2, "12 GFLOP/s"), (3, "0.444 ms"), (3, "65.9 µs"),
            (4, "309.35"), (4, "42.0 / 44.1")])


class RunFiles(unittest.TestCase):
    """The committed runs read cleanly; a broken run file is named with its file and line."""

    def test_the_committed_runs_read(self):
        runs = run_facts.read_runs(ROOT)
        self.assertTrue(runs)
        self.assertIsNotNone(run_facts.current(runs))

    def broken(self, **kwargs):
        root = fake_root(**kwargs)
        self.addCleanup(shutil.rmtree, root, ignore_errors=True)
        with self.assertRaises(run_facts.RunFileError) as caught:
            run_facts.read_runs(root)
        return str(caught.exception)

    def test_a_row_typed_by_hand(self):
        lines = GOOD_CSV.splitlines()
        lines[3] = lines[3].replace(",26.0583,", ",26.058,")
        self.assertRegex(self.broken(csv_text="\n".join(lines) + "\n"),
                         r"^docs/dev/runs/2026-11-24-gpu/bench\.csv:4: milliseconds '26\.058' does not have the 4 decimals")

    def test_a_short_row_and_a_wrong_header(self):
        lines = GOOD_CSV.splitlines()
        self.assertIn("bench.csv:6: 11 fields", self.broken(csv_text="\n".join(lines[:5] + [lines[5].rsplit(",", 1)[0]]) + "\n"))
        self.assertIn("bench.csv:1: the header", self.broken(csv_text="puzzle,kernel\n"))

    def test_a_run_json_without_a_field_or_with_another_date(self):
        info = dict(RUN_JSON)
        del info["driver"]
        self.assertRegex(self.broken(info=info), r"run\.json:\d+: 'driver' must be")
        info = dict(RUN_JSON, date="2026-11-25")
        self.assertRegex(self.broken(info=info), r"run\.json:2: the date 2026-11-25 is not the folder's")
        self.assertIn("named <date>-<machine>", self.broken(name="latest"))

    def test_rounding_is_once_half_away_from_zero(self):
        self.assertEqual(run_facts.figure("44.25", "percent"), "44.3")
        self.assertEqual(run_facts.figure("39.995", "tflops"), "40.0")
        self.assertEqual(run_facts.figure("7.765", "tflops"), "7.8")
        self.assertEqual(run_facts.figure("0.0136", "ms"), "0.014")
        self.assertEqual(run_facts.figure("26.0825", "ms"), "26.083")

    def test_checker_run_bench_names_its_folder_by_date_and_gpu_model(self):
        from commands import bench
        self.assertEqual(bench.machine_slug("NVIDIA H100 80GB HBM3"), "h100")
        self.assertEqual(bench.machine_slug("NVIDIA GeForce RTX 4090"), "rtx4090")
        self.assertEqual(bench.machine_slug("Tesla"), "gpu")
        self.assertTrue(run_facts.FOLDER.match(f"2026-11-24-{bench.machine_slug('NVIDIA A100-SXM4-40GB')}-2"))

    def test_the_current_run_is_the_newest_with_a_csv(self):
        root = fake_root()
        self.addCleanup(shutil.rmtree, root, ignore_errors=True)
        later = root / run_facts.RUNS / "2026-11-24-gpu-2"
        later.mkdir()
        (later / "run.json").write_text(json.dumps(RUN_JSON), encoding="utf-8")
        self.assertEqual(run_facts.current(run_facts.read_runs(root)).name, "2026-11-24-gpu")
        (later / "bench.csv").write_text(GOOD_CSV, encoding="utf-8")
        self.assertEqual(run_facts.current(run_facts.read_runs(root)).name, "2026-11-24-gpu-2")


class PlotSource(unittest.TestCase):
    """docs/img/speed.svg was drawn from the current run's CSV, as it is now."""

    def test_the_plot_is_drawn_from_the_current_csv(self):
        current = run_facts.current(run_facts.read_runs(ROOT))
        svg = (ROOT / "docs" / "img" / "speed.svg").read_text(encoding="utf-8")
        source, digest = speed_plot.drawn_from(svg)
        self.assertEqual(source, current.csv_path(ROOT), "the plot is not from the current run: "
                         "run checker/run bench --plot-only")
        self.assertEqual(digest, speed_plot.digest(current.folder / "bench.csv"),
                         f"{source} changed since the plot was drawn: run checker/run bench --plot-only")

    def test_the_plot_is_readable_at_the_page_width(self):
        svg = (ROOT / "docs" / "img" / "speed.svg").read_text(encoding="utf-8")
        self.assertIn('width="540pt"', svg)  # 7.5 inches
        self.assertIn("font: 12px", svg)  # the SVG's px are its pt: 12 pt on the page

    def test_a_plot_without_its_source(self):
        self.assertEqual(speed_plot.drawn_from("<svg/>"), (None, None))


class PlotDrawing(unittest.TestCase):
    """What the plot shows: each bar as long as its TFLOP/s on its panel's axis, one panel per
    baseline, every label, and a document that parses, whatever the device's name holds."""

    def draw(self, info=None):
        root = fake_root(info=info)
        self.addCleanup(shutil.rmtree, root, ignore_errors=True)
        run = run_facts.current(run_facts.read_runs(root))
        out = root / "speed.svg"
        speed_plot.draw(run, "bench.csv", out)
        return run, out.read_text(encoding="utf-8")

    def test_every_bar_is_as_long_as_its_tflops(self):
        run, svg = self.draw()
        panels = speed_plot.bars(run)
        tree = ElementTree.fromstring(svg)
        rects = [r for r in tree.iter(SVG + "rect") if r.get("fill") in (speed_plot.KERNEL_COLOUR,
                                                                         speed_plot.CUBLAS_COLOUR)]
        widths = [float(r.get("width")) for r in rects]
        items = [item for items in panels.values() for item in items]
        self.assertEqual(len(widths), 2 * len(items))
        axes = [t.text for t in tree.iter(SVG + "text") if t.text.startswith("TFLOP/s")]
        self.assertEqual(axes, [f"TFLOP/s (grey: {b}; % of it on each bar)" for b in panels])
        start = 0
        for baseline, items in panels.items():
            # On one panel every bar has the same scale: width / TFLOP/s is one number.
            scales = []
            for i, (_, kernel, cublas, _) in enumerate(items):
                cublas_width, kernel_width = widths[start + 2 * i], widths[start + 2 * i + 1]
                scales += [cublas_width / cublas, kernel_width / kernel]
            self.assertLess(max(scales) - min(scales), 0.01 * min(scales), baseline)
            start += 2 * len(items)

    def test_every_label_and_percent_is_written(self):
        run, svg = self.draw()
        texts = [t.text for t in ElementTree.fromstring(svg).iter(SVG + "text")]
        for items in speed_plot.bars(run).values():
            for label, _, _, percent in items:
                self.assertIn(label, texts)
                self.assertIn(percent, texts)

    def test_the_axis_reaches_past_the_longest_bar(self):
        for largest in (0.07, 0.5, 2.386, 26.8, 51.476, 100, 650, 999, 1000):
            with self.subTest(largest=largest):
                ticks = speed_plot.ticks(largest)
                self.assertEqual(ticks[0], 0)
                self.assertGreaterEqual(ticks[-1], largest)
                self.assertLessEqual(len(ticks), 8)
                self.assertGreaterEqual(len(ticks), 3)

    def test_a_device_name_with_markup_characters_stays_text(self):
        info = dict(RUN_JSON)
        csv = GOOD_CSV.replace("NVIDIA", "R&D <lab>")
        root = fake_root(csv_text=csv, info=info)
        self.addCleanup(shutil.rmtree, root, ignore_errors=True)
        run = run_facts.current(run_facts.read_runs(root))
        out = root / "speed.svg"
        speed_plot.draw(run, "bench.csv", out)
        title = ElementTree.fromstring(out.read_text(encoding="utf-8")).find(SVG + "text").text
        self.assertTrue(title.startswith("R&D <lab>"), title)


if __name__ == "__main__":
    unittest.main()
