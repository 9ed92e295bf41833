"""The course site's pages: the specs as Spec objects, the navigation, the generated blocks on
disk, and the speed plot's placeholder. Used by `checker/run docs` and by MkDocs's hooks
(checker/site/hooks.py); standard library only.

The navigation is mkdocs.yml's `nav`, completed here so that new pages need no edit:
- the `Puzzles` section is filled from checker/specs, in order of number (a spec without a page
  is an error);
- a page under docs/ that the nav does not name is added: docs/dev/* to `For engineers`, any other
  page after the puzzles (list it in mkdocs.yml to choose its place).
"""
import re
from pathlib import Path

from course import site_facts
from course import specs as spec_files

PUZZLES = "Puzzles"
ENGINEERS = "For engineers"
SPEED_PAGE = "speed.md"
SPEED_PLOT = re.compile(r"!\[([^\]]*)\]\(img/speed\.(svg|png)\)")


def load_specs(specs_dir):
    """Every spec, in order of number; ValueError names a file that cannot be read."""
    specs = []
    for path in sorted(Path(specs_dir).glob("p*.json")):
        try:
            specs.append(site_facts.Spec(spec_files.read(path)))
        except (ValueError, KeyError, IndexError, StopIteration) as error:
            raise ValueError(f"checker/specs/{path.name}: cannot be read ({type(error).__name__}: {error}); "
                             "the puzzle's checker says more") from None
    return sorted(specs, key=lambda s: s.number)


def markdown_pages(docs_dir):
    """Every Markdown page under docs/, as paths relative to it ('dev/engine.md')."""
    docs = Path(docs_dir)
    return sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))


def _named(nav):
    """The pages a nav names."""
    found = []
    for item in nav or []:
        value = item if isinstance(item, str) else next(iter(item.values()))
        if isinstance(value, list):
            found += _named(value)
        elif isinstance(value, str) and not re.match(r"\w+://", value):
            found.append(value)
    return found


def _section(nav, title):
    for item in nav:
        if isinstance(item, dict) and title in item and isinstance(item[title], list):
            return item[title]
    return None


def complete_nav(nav, docs_dir, specs):
    """(the nav with the puzzles and every unlisted page in it, errors, notes)."""
    nav = [dict(item) if isinstance(item, dict) else item for item in (nav or [])]
    errors, notes = [], []
    pages = set(markdown_pages(docs_dir))
    puzzles = _section(nav, PUZZLES)
    if puzzles is None:
        puzzles = []
        nav.insert(1 if nav else 0, {PUZZLES: puzzles})
    puzzles.clear()
    for spec in specs:
        if spec.page in pages:
            puzzles.append({f"{spec.number}. {spec.title}": spec.page})
        else:
            errors.append(f"checker/specs/{spec.id}.json has no page: write docs/{spec.page} "
                          "(docs/dev/spec.md lists what a puzzle needs)")
    spec_pages = {s.page for s in specs}
    named = set(_named(nav))
    for page in sorted(pages - named):
        if site_facts.PUZZLE_PAGE.match(page) and page not in spec_pages:
            errors.append(f"docs/{page} looks like a puzzle page, but no spec in checker/specs has its id")
            continue
        if page.startswith("dev/"):
            section = _section(nav, ENGINEERS)
            if section is None:
                section = []
                nav.append({ENGINEERS: section})
            section.append(page)
            notes.append(f"docs/{page} is not in mkdocs.yml's nav: shown at the end of '{ENGINEERS}'")
        else:
            at = next(i for i, item in enumerate(nav) if isinstance(item, dict) and PUZZLES in item)
            while at + 1 < len(nav) and isinstance(nav[at + 1], str) and nav[at + 1] < page:
                at += 1
            nav.insert(at + 1, page)
            notes.append(f"docs/{page} is not in mkdocs.yml's nav: shown after the puzzles")
    return nav, errors, notes


def speed_plot(markdown, docs_dir):
    """(the speed page's Markdown, note): the plot that `checker/run bench` writes (docs/img/speed.svg
    or .png), or a placeholder that says how to make it. Note is None when the plot is there."""
    img = Path(docs_dir) / "img"
    match = SPEED_PLOT.search(markdown)
    if not match:
        return markdown, "error: the speed page does not show img/speed.svg"
    for ext in (match.group(2), "svg", "png"):
        if (img / f"speed.{ext}").is_file():
            return SPEED_PLOT.sub(lambda m: f"![{m.group(1)}](img/speed.{ext})", markdown, count=1), None
    placeholder = ('!!! note "The plot is not there yet"\n\n'
                   "    `checker/run bench`, run on a machine with an NVIDIA GPU, measures the kernels and\n"
                   "    draws this plot into `docs/img/speed.svg`. Until then, the numbers are in\n"
                   "    [the measurements](dev/measurements.md).\n")
    return SPEED_PLOT.sub(lambda m: placeholder, markdown, count=1), "docs/img/speed.svg is not there yet: " \
        "the speed page shows a placeholder"


DETAILS = re.compile(r"^<details(?P<attrs>[^>]*)>[ \t]*\n(?P<summary>[ \t]*<summary>(?P<text>.*?)</summary>)", re.M)
STYLES = [(re.compile(r"solution|walkthrough|answer", re.I), "example"),
          (re.compile(r"tip|hint|stuck", re.I), "tip")]


def collapsible_blocks(markdown):
    """`<details>` blocks, as the pages write them for GitHub, made into Material's collapsible
    blocks: their insides are read as Markdown, and a summary that names tips or a solution picks
    the style."""
    def convert(m):
        attrs = m.group("attrs")
        if "class=" not in attrs:
            style = next((name for pattern, name in STYLES if pattern.search(m.group("text"))), None)
            attrs += f' class="{style}"' if style else ""
        if "markdown=" not in attrs:
            attrs += ' markdown="1"'
        return f"<details{attrs}>\n{m.group('summary')}"
    return DETAILS.sub(convert, markdown)


README = "../README.md"  # the course's front page, outside docs/, with generated blocks too


def update_files(docs_dir, specs):
    """Rewrite the generated blocks of every page (and of the README) from the specs and the committed
    runs, and add a configuration block to a puzzle page that has none. Returns the pages changed."""
    changed = []
    readme = [README] if (Path(docs_dir) / README).is_file() else []
    for page in markdown_pages(docs_dir) + readme:
        path = Path(docs_dir) / page
        text = path.read_text(encoding="utf-8")
        new, _ = site_facts.regenerate(page, text, specs)
        spec = site_facts.spec_of_page(page, specs)
        if spec and not site_facts.BLOCK.search(new):
            new = site_facts.insert_configuration(new, spec, specs)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(page)
    return changed


def page_problems(page, text, specs):
    """Everything wrong with a page's spec facts: stale generated blocks and prose that disagrees."""
    _, problems = site_facts.regenerate(page, text, specs)
    return problems + site_facts.check_page(page, text, specs)
