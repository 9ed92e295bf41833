#!/usr/bin/env python3
"""The course site's tests: the pages agree with checker/specs, the nav holds every page, and
the site builds with MkDocs --strict. tests/site/CMakeLists.txt registers one CTest test per class:

    python3 tests/site/test_site.py SiteBuild       # one class
    python3 tests/site/test_site.py                 # all of them

The classes that build the site need MkDocs (the `docs` packages of checker/debian-packages.txt).
Without it they print SKIPPED and exit 77, except under CI (CI set), where they fail.
"""
import copy
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))

from commands import docs as docs_command  # noqa: E402  (after the path is set)
from course import site_facts, site_pages  # noqa: E402

DOCS = ROOT / "docs"
SPECS = site_pages.load_specs(ROOT / "checker" / "specs")


def spec(puzzle_id):
    return next(s for s in SPECS if s.id == puzzle_id)


def page_text(puzzle_id):
    return (DOCS / f"{puzzle_id}.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ facts generated from the specs


class _NavLinks(html.parser.HTMLParser):
    """The site's navigation links: href -> the texts a reader sees, whatever the theme wraps them in."""

    def __init__(self):
        super().__init__()
        self.links = {}
        self._open = []  # per open <a>: its href when it is a nav link, else None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            attributes = dict(attrs)
            nav = "md-nav__link" in (attributes.get("class") or "").split()
            self._open.append([attributes.get("href"), ""] if nav else None)

    def handle_endtag(self, tag):
        if tag == "a" and self._open:
            link = self._open.pop()
            if link and link[0]:
                self.links.setdefault(link[0], []).append(" ".join(link[1].split()))

    def handle_data(self, data):
        for link in self._open:
            if link:
                link[1] += data


def nav_links(page):
    parser = _NavLinks()
    parser.feed(page)
    return parser.links

class GeneratedBlocks(unittest.TestCase):
    """The tables generated from checker/specs are in the pages, and up to date."""

    def test_every_puzzle_page_has_a_configuration_table_from_its_spec(self):
        for s in SPECS:
            with self.subTest(page=s.page):
                self.assertTrue((DOCS / s.page).is_file(), f"docs/{s.page} is missing")
                blocks = [m.group(2) for m in site_facts.BLOCK.finditer(page_text(s.id))]
                self.assertIn("configuration", blocks,
                              f"docs/{s.page}: no configuration table; checker/run docs --update adds it")

    def test_every_generated_block_is_up_to_date(self):
        for page in site_pages.markdown_pages(DOCS):
            with self.subTest(page=page):
                text = (DOCS / page).read_text(encoding="utf-8")
                _, problems = site_facts.regenerate(page, text, SPECS)
                self.assertEqual(problems, [], f"docs/{page}")

    def test_the_course_index_lists_every_puzzle(self):
        text = (DOCS / "README.md").read_text(encoding="utf-8")
        self.assertIn("puzzles", [m.group(2) for m in site_facts.BLOCK.finditer(text)])
        for s in SPECS:
            self.assertIn(f"]({s.page})", text)

    def test_a_table_shows_the_spec_values(self):
        table = site_facts.configuration_table(spec("p04_tiled"))
        self.assertIn("| Block | 16 × 16 = 256 threads (TILE × TILE) |", table)
        self.assertIn("| Grid | ⌈n/16⌉ × ⌈n/16⌉ blocks |", table)
        self.assertIn("`TILE = 16`", table)
        self.assertIn("n = 1, 16, 33, 100, 257 (CPU backend)", table)
        self.assertIn("at most 2·⌈n/16⌉ per thread", table)
        self.assertIn("`Result: 6 of 6 cases passed. PASS` on the CPU backend, 7 of 7 on a GPU", table)


class ProseFacts(unittest.TestCase):
    """Sample output, constants and titles written in the pages agree with the specs."""

    def test_the_puzzle_pages_agree_with_their_specs(self):
        for s in SPECS:
            with self.subTest(page=s.page):
                self.assertEqual(site_facts.check_page(s.page, page_text(s.id), SPECS), [], f"docs/{s.page}")


class FactChecks(unittest.TestCase):
    """The checks find what they are for: each test breaks one fact of a real page."""

    def problems(self, puzzle_id, old, new):
        text = page_text(puzzle_id)
        self.assertIn(old, text, "the page changed: pick another fact to break")
        return "\n".join(site_pages.page_problems(f"{puzzle_id}.md", text.replace(old, new, 1), SPECS))

    def test_a_wrong_case_count(self):
        self.assertIn("a run has 6 or 7 cases", self.problems("p01_naive", "...\nResult: 6 of 6", "...\nResult: 5 of 5"))
        self.assertIn("[1/5]", self.problems("p01_naive", "[1/6] worked", "[1/5] worked"))

    def test_a_wrong_worked_example_size(self):
        self.assertIn("the worked example is at n = 4",
                      self.problems("p01_naive", "[1/6] worked example, n = 4", "[1/6] worked example, n = 5"))

    def test_wrong_worked_example_values(self):
        found = self.problems("p05_single_block_aat", "expected: [1.0, 3.0, 3.0, 13.0]",
                              "expected: [1.0, 3.0, 3.0, 14.0]")
        self.assertIn("the worked example's expected is [1.0, 3.0, 3.0, 13.0]", found)

    def test_a_wrong_output_name(self):
        self.assertIn("the output is called 'out'", self.problems("p05_single_block_aat", "  out:      [nan",
                                                                   "  c:        [nan"))

    def test_a_wrong_constant_in_the_text_but_not_in_code(self):
        text = "Shared memory holds `a_tile[TILE][TILE]`"
        self.assertIn("'TILE = 32' in the text", self.problems("p04_tiled", text, "With TILE = 32, shared memory holds `a_tile[TILE][TILE]`"))
        self.assertEqual(self.problems("p04_tiled", text, "Try `TILE = 32`: shared memory holds `a_tile[TILE][TILE]`"), "")

    def test_a_wrong_load_budget(self):
        self.assertIn("at n = 33 the budget is 6 loads, not 7",
                      self.problems("p04_tiled", "this puzzle allows 6", "this puzzle allows 7"))
        self.assertIn("give the whole message",
                      self.problems("p04_tiled", "this puzzle allows 6\n  (2 * ceil(n / 16) at n = 33",
                                    "this puzzle allows 6\n  (at n = 33"))

    def test_a_random_case_at_the_wrong_place(self):
        block = "\n```text\n[2/6] random, seed 2024, n = 16\n  PASS\n```\n"
        found = "\n".join(site_facts.check_page("p04_tiled.md", page_text("p04_tiled") + block, SPECS))
        self.assertIn("case 2 of 6 is at n = 1", found)

    def test_a_wrong_title(self):
        self.assertIn("the title should be '# Puzzle 4: Tiled matrix multiplication'",
                      self.problems("p04_tiled", "# Puzzle 4: Tiled", "# Puzzle 4: The tiled"))

    def test_a_stale_table(self):
        found = self.problems("p04_tiled", "| Constant | `TILE = 16` |", "| Constant | `TILE = 32` |")
        self.assertIn("out of date with checker/specs: run checker/run docs --update", found)


class GeneratorCoverage(unittest.TestCase):
    """The tables cover every field of docs/dev/spec.md, for the puzzles still to come."""

    def test_a_rectangular_fp16_spec_with_every_field(self):
        data = copy.deepcopy(spec("p04_tiled").data)
        data.update(number=9, id="p09_example", title="Every field",
                    signature="void(const __half* a, const __half* b, float* c, int m, int n, int k)",
                    kernels=["matmul_a<BM, BN>", "matmul_b<BM, BN>"], epilogue="relu",
                    constants={"BM": 64, "BN": 32})
        data["launch"] = {"block": ["128"], "grid": ["ceil(n / BN)", "ceil(m / BM)"],
                          "dynamic_shared_bytes": "2 * (BM + BN) * 32 * 2"}
        data["output_tile"] = ["BM", "BN"]
        data["cases"] = {"worked": [4, 3, 2], "cpu": [[64, 32, 16]], "gpu": [[64, 32, 16], [128, 64, 32]]}
        data["limits"] = {"shared_bank_conflicts": {"max_ways": 1, "why": "pad the tile"},
                          "global_sectors_per_request": {"max": 4, "why": "coalesce the loads"}}
        data["bench"] = {"shapes": [[4096, 4096, 4096]], "baseline": "hgemm", "target_percent_of_cublas": 50}
        s = site_facts.Spec(data)
        table = site_facts.configuration_table(s)
        for expected in ("| Kernels | `matmul_a(const __half* a", "`matmul_b(", "row-major: a `__half` and b `__half`, c `float`",
                         "with a m × k, b k × n and c m × n", "| Grid | ⌈n/32⌉ × ⌈m/64⌉ blocks |",
                         "| One block computes | 64 × 32 elements of `c`",
                         "| Dynamic shared memory | 2·(64 + 32)·32·2 bytes |",
                         "worked example m = 4, n = 3, k = 2", "m × n × k = 64×32×16 (CPU backend)",
                         "at most 1-way", "at most 4 on average", "4 of 4 cases passed. PASS` on the CPU backend, 6 of 6",
                         "cuBLAS HGEMM", "the target for the reference solution: 50 % of it at 4096×4096×4096"):
            self.assertIn(expected, table)
        output = ("```text\nKernel 1 of 2: matmul_a\n[1/2] worked example, m = 4, n = 3, k = 2\n"
                  "[2/2] random, seed 2024, m = 64, n = 32, k = 16\nResult: 4 of 4 cases passed. PASS\n```\n")
        problems = site_facts.check_page("p09_example.md", output, [s])
        self.assertEqual([p for p in problems if "sample output" in p], [])
        self.assertTrue(any("sample output" in p for p in site_facts.check_page(
            "p09_example.md", output.replace("4 of 4", "2 of 2"), [s])))
        data["bench"]["target_at"] = "every"  # the target at every timed shape
        self.assertIn("the target for the reference solution: 50 % of it at every timed shape",
                      site_facts.configuration_table(site_facts.Spec(data)))
        a, b, expected = site_facts.worked_problem(s)
        self.assertEqual((len(a), len(b), len(expected)), (4 * 2, 2 * 3, 4 * 3))
        self.assertTrue(all(v >= 0 for v in expected))

    def test_tensor_maps_and_the_gpu_a_kernel_needs(self):
        data = copy.deepcopy(spec("p12_tma_wgmma").data)
        data.update(constants={"BM": 128, "BN": 256, "BK": 32}, requires_gpu="sm_90a")
        data["tensor_maps"] = {"a_map": {"matrix": "a", "box": ["BK", "BM"], "swizzle": 64},
                               "b_map": {"matrix": "b", "box": ["64", "BK"], "swizzle": 0}}
        table = site_facts.configuration_table(site_facts.Spec(data))
        for expected in ("| Kernel | `matmul_tma_wgmma(const __grid_constant__ CUtensorMap a_map, "
                         "const __grid_constant__ CUtensorMap b_map, float* c, int m, int n, int k)` |",
                         "row-major: a `__half` and b `__half` (as the tensor maps `a_map` and `b_map`), c `float` |",
                         "| Runs on | the CPU backend on any machine; the GPU backend on a Hopper GPU "
                         "(sm_90a: compute capability 9.0) |",
                         "| Tensor map `a_map` | a as k columns × m rows; boxes of 32 × 128 halves "
                         "(columns × rows: BK × BM), 64-byte swizzle; zeros where a box leaves a; k a multiple of 8",
                         "| Tensor map `b_map` | b as n columns × k rows; boxes of 64 × 32 halves "
                         "(columns × rows: 64 × BK), no swizzle; zeros where a box leaves b; n a multiple of 8"):
            self.assertIn(expected, table)
        self.assertLess(table.index("| Constants |"), table.index("| Tensor map `a_map` |"))
        data["requires_gpu"] = "sm_80"
        self.assertIn("the GPU backend on an Ampere GPU or newer (sm_80) |",
                      site_facts.configuration_table(site_facts.Spec(data)))
        self.assertNotIn("| Cluster |", site_facts.configuration_table(site_facts.Spec(data)))
        data["requires_gpu"] = "sm_90a"
        data["constants"] = {**data["constants"], "CLUSTER_M": 2}
        data["launch"] = {**data["launch"], "cluster": ["CLUSTER_M", 1]}
        table = site_facts.configuration_table(site_facts.Spec(data))
        self.assertIn("| Cluster | 2 × 1 blocks, which run together as one thread block cluster |", table)
        self.assertLess(table.index("| Grid |"), table.index("| Cluster |"))
        clustered_on_ampere = dict(requires_gpu="sm_80", launch={**data["launch"], "cluster": [2, 1]})
        for broken, field in ((dict(requires_gpu="hopper"), "requires_gpu"), (dict(tensor_maps={}), "a_map"),
                              (clustered_on_ampere, "launch.cluster")):
            with self.subTest(broken=broken), tempfile.TemporaryDirectory() as root:
                (Path(root) / "p12_tma_wgmma.json").write_text(json.dumps({**data, **broken}), encoding="utf-8")
                with self.assertRaisesRegex(ValueError, rf"checker/specs/p12_tma_wgmma.json: cannot be read.*{field}"):
                    site_pages.load_specs(root)

    def test_c_names_become_code(self):
        self.assertEqual(site_facts.code_words("__shared__ memory and __syncthreads()"),
                         "`__shared__` memory and `__syncthreads()`")


# ------------------------------------------------------------------ pages and navigation

def fake_docs(root, pages):
    for page in pages:
        path = Path(root) / page
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {page}\n", encoding="utf-8")
    return root


class Navigation(unittest.TestCase):
    """The nav's Puzzles section comes from the specs; pages that mkdocs.yml does not name join it."""

    NAV = [{"The course": "README.md"}, {"Puzzles": []}, {"Speed": "speed.md"},
           {"For engineers": ["dev/engine.md"]}]

    def test_every_spec_gets_a_nav_entry_in_order(self):
        nav, errors, _ = site_pages.complete_nav(copy.deepcopy(self.NAV), DOCS, SPECS)
        puzzles = next(item["Puzzles"] for item in nav if isinstance(item, dict) and "Puzzles" in item)
        self.assertEqual([next(iter(e.values())) for e in puzzles], [s.page for s in SPECS])
        self.assertEqual(errors, [])

    def test_new_pages_join_the_nav(self):
        with tempfile.TemporaryDirectory() as root:
            fake_docs(root, ["README.md", "p01_naive.md", "speed.md", "workflow.md", "instructors.md",
                             "dev/engine.md", "dev/grading.md"])
            nav, errors, notes = site_pages.complete_nav(copy.deepcopy(self.NAV), root, SPECS[:1])
        self.assertEqual(errors, [])
        self.assertEqual(nav[1], {"Puzzles": [{f"1. {SPECS[0].title}": "p01_naive.md"}]})
        self.assertEqual(nav[2:4], ["instructors.md", "workflow.md"])
        self.assertEqual(nav[-1], {"For engineers": ["dev/engine.md", "dev/grading.md"]})
        self.assertEqual(len(notes), 3)

    def test_a_spec_without_a_page_and_a_page_without_a_spec_are_errors(self):
        with tempfile.TemporaryDirectory() as root:
            fake_docs(root, ["README.md", "p01_naive.md", "p07_orphan.md"])
            _, errors, _ = site_pages.complete_nav(copy.deepcopy(self.NAV), root, SPECS[:2])
        self.assertIn(f"checker/specs/{SPECS[1].id}.json has no page: write docs/{SPECS[1].page}", "\n".join(errors))
        self.assertIn("docs/p07_orphan.md looks like a puzzle page", "\n".join(errors))


class SpeedPlot(unittest.TestCase):
    """The speed page shows the plot of checker/run bench, or a placeholder until there is one."""

    PAGE = "# Speed\n\n![the plot](img/speed.svg)\n"

    def test_placeholder_without_a_plot(self):
        with tempfile.TemporaryDirectory() as root:
            text, note = site_pages.speed_plot(self.PAGE, root)
        self.assertIn('!!! note "The plot is not there yet"', text)
        self.assertNotIn("img/speed.svg)", text)
        self.assertIn("not there yet", note)

    def test_the_plot_svg_or_png(self):
        with tempfile.TemporaryDirectory() as root:
            (Path(root) / "img").mkdir()
            (Path(root) / "img" / "speed.png").write_bytes(b"png")
            self.assertEqual(site_pages.speed_plot(self.PAGE, root), ("# Speed\n\n![the plot](img/speed.png)\n", None))
            (Path(root) / "img" / "speed.svg").write_text("<svg/>")
            self.assertEqual(site_pages.speed_plot(self.PAGE, root), (self.PAGE, None))

    def test_the_real_page_shows_the_plot(self):
        _, note = site_pages.speed_plot((DOCS / site_pages.SPEED_PAGE).read_text(encoding="utf-8"), DOCS)
        self.assertFalse(note and note.startswith("error"), note)


class CollapsibleBlocks(unittest.TestCase):
    """A page's <details> blocks (as GitHub shows them) become Material's collapsible blocks."""

    def test_tips_and_solutions_get_their_style_and_markdown_inside(self):
        page = ("<details>\n<summary>Open when you are stuck</summary>\n\n- a tip\n\n</details>\n\n"
                "<details>\n<summary>Solution walkthrough</summary>\n\n```cuda\nx\n```\n\n</details>\n\n"
                "<details class=\"warning\">\n<summary>Careful</summary>\n</details>\n")
        converted = site_pages.collapsible_blocks(page)
        self.assertIn('<details class="tip" markdown="1">\n<summary>Open when you are stuck</summary>', converted)
        self.assertIn('<details class="example" markdown="1">\n<summary>Solution walkthrough</summary>', converted)
        self.assertIn('<details class="warning" markdown="1">', converted)
        self.assertEqual(site_pages.collapsible_blocks(converted), converted)


class UpdateCommand(unittest.TestCase):
    """checker/run docs --update rewrites stale tables and adds a missing one."""

    def test_update_rewrites_and_inserts(self):
        with tempfile.TemporaryDirectory() as root:
            shutil.copy(DOCS / "p04_tiled.md", root)
            stale = page_text("p04_tiled").replace("| Constant | `TILE = 16` |", "| Constant | `TILE = 8` |")
            (Path(root) / "p04_tiled.md").write_text(stale, encoding="utf-8")
            new_page = "# Puzzle 1: Naive matrix multiplication\n\n**You will learn:** x.\n\n## Tips\n\nt\n"
            (Path(root) / "p01_naive.md").write_text(new_page, encoding="utf-8")
            self.assertEqual(site_pages.update_files(root, SPECS), ["p01_naive.md", "p04_tiled.md"])
            self.assertEqual((Path(root) / "p04_tiled.md").read_text(encoding="utf-8"), page_text("p04_tiled"))
            added = (Path(root) / "p01_naive.md").read_text(encoding="utf-8")
            self.assertEqual(site_pages.page_problems("p01_naive.md", added, SPECS), [])
            self.assertLess(added.index("## The configuration"), added.index("## Tips"))
            self.assertEqual(site_pages.update_files(root, SPECS), [])


# ------------------------------------------------------------------ the site, built with MkDocs

def build(site_dir):
    return subprocess.run([sys.executable, str(ROOT / "checker" / "cli" / "main.py"), "docs", "--site-dir", site_dir],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


class SiteBuild(unittest.TestCase):
    """checker/run docs builds the site with --strict; every puzzle and every page is in it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.site = Path(cls.tmp.name) / "site"
        cls.result = build(str(cls.site))
        index = cls.site / "index.html"
        cls.index = index.read_text(encoding="utf-8") if index.is_file() else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_strict_build_succeeds(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout)

    def test_every_puzzle_has_a_page_and_a_nav_entry(self):
        links = nav_links(self.index)
        for s in SPECS:
            with self.subTest(puzzle=s.id):
                self.assertTrue((self.site / f"{s.id}.html").is_file())
                self.assertTrue(any(text.startswith(f"{s.number}. ") for text in links.get(f"{s.id}.html", [])),
                                links.get(f"{s.id}.html"))

    def test_every_page_is_in_the_nav(self):
        links = nav_links(self.index)
        for page in site_pages.markdown_pages(DOCS):
            if page == "README.md":
                continue
            html = page[:-3] + ".html"
            with self.subTest(page=page):
                self.assertTrue((self.site / html).is_file())
                self.assertIn(html, links)

    def test_nothing_is_loaded_from_the_network(self):
        fetch = re.compile(r"<(?:link|script|img|iframe|source|audio|video|embed|object)\b[^>]*\b(?:src|href|data)="
                           r"[\"']?(?:https?:)?//", re.I)
        css = re.compile(r"(?:@import|url\()\s*[\"']?(?:https?:)?//", re.I)
        for path in self.site.rglob("*"):
            if path.suffix in (".html", ".css"):
                text = path.read_text(encoding="utf-8")
                with self.subTest(file=str(path.relative_to(self.site))):
                    self.assertIsNone((fetch if path.suffix == ".html" else css).search(text))
                    self.assertNotIn("fonts.googleapis", text)

    def test_pages_show_rendered_markdown_and_existing_images(self):
        for path in self.site.rglob("*.html"):
            text = path.read_text(encoding="utf-8")
            with self.subTest(file=str(path.relative_to(self.site))):
                content = text.split('<article class="md-content__inner md-typeset">', 1)[-1]
                self.assertNotIn("```", content, "a code fence was not rendered (inside <details>? add markdown=\"1\")")
                for src in re.findall(r'<img [^>]*src="([^"]+)"', content):
                    self.assertTrue((path.parent / src).is_file(), src)

    def test_puzzle_pages_have_collapsible_blocks_and_a_diagram(self):
        for s in SPECS:
            text = (self.site / f"{s.id}.html").read_text(encoding="utf-8")
            with self.subTest(puzzle=s.id):
                self.assertIn("<summary>", text, f"docs/{s.page} has no <details> block (tips, the solution)")
                self.assertRegex(text, r'<img [^>]*src="img/[^"]+\.svg"', f"docs/{s.page} shows no diagram "
                                 "(an SVG file in docs/img/: checker/site/README.md)")


class StrictBuildCatchesDrift(unittest.TestCase):
    """A copy of the site whose page disagrees with its spec, and with a spec that has no page,
    does not build."""

    def test_a_wrong_fact_and_a_missing_page_fail_the_build(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            shutil.copy(ROOT / "mkdocs.yml", root)
            ignore = shutil.ignore_patterns("__pycache__")
            for part in ("docs", "checker/site", "checker/specs", "checker/cli/course"):
                shutil.copytree(ROOT / part, root / part, ignore=ignore)
            page = root / "docs" / "p04_tiled.md"
            page.write_text(page.read_text(encoding="utf-8").replace("Result: 6 of 6", "Result: 5 of 5"),
                            encoding="utf-8")
            extra = json.loads((ROOT / "checker" / "specs" / "p04_tiled.json").read_text(encoding="utf-8"))
            extra.update(number=99, id="p99_no_page")
            (root / "checker" / "specs" / "p99_no_page.json").write_text(json.dumps(extra), encoding="utf-8")
            result = subprocess.run(["mkdocs", "build", "--strict", "--config-file", str(root / "mkdocs.yml"),
                                     "--site-dir", str(root / "site")], cwd=root, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("docs/p04_tiled.md: ", result.stdout)
        self.assertIn("Result: 5 of 5", result.stdout)
        self.assertIn("checker/specs/p99_no_page.json has no page", result.stdout)


NEEDS_MKDOCS = {"SiteBuild", "StrictBuildCatchesDrift"}


def main():
    wanted = [a for a in sys.argv[1:] if not a.startswith("-")]
    if NEEDS_MKDOCS & {w.split(".")[0] for w in wanted} or not wanted:
        absent = docs_command.missing(docs_command.packages())
        if absent:
            why = (f"MkDocs is not installed (the docs packages of checker/debian-packages.txt: "
                   f"{' '.join(absent)}): {docs_command.install_command(absent)}")
            if os.environ.get("CI"):
                print(f"FAILED: the site must build in CI, but {why}")
                return 1
            if wanted:
                print(f"SKIPPED: {why}")
                return 77
            print(f"SKIPPED (the site builds): {why}")
            for name in NEEDS_MKDOCS:
                del globals()[name]
    program = unittest.main(argv=[sys.argv[0]] + sys.argv[1:], exit=False, verbosity=1)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
