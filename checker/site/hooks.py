"""MkDocs hooks for the course site (mkdocs.yml: hooks). They keep the site in step with the specs:

- on_config: the nav's `Puzzles` section comes from checker/specs, and pages the nav does not
  name are added (course/site_pages.py);
- on_page_markdown: generated blocks are made anew from checker/specs, and a page whose facts
  disagree with its spec is a warning, which fails the build under --strict
  (course/site_facts.py); `<details>` blocks become collapsible blocks whose insides are
  Markdown; the speed page gets its plot or a placeholder.
"""
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "checker" / "cli"))

from course import site_facts, site_pages  # noqa: E402  (after the path is set)
from mkdocs.exceptions import PluginError  # noqa: E402

log = logging.getLogger("mkdocs.hooks.course")
_specs = []


def on_config(config, **kwargs):
    try:
        _specs[:] = site_pages.load_specs(ROOT / "checker" / "specs")
    except ValueError as error:
        raise PluginError(str(error)) from None
    nav, errors, notes = site_pages.complete_nav(config["nav"], config["docs_dir"], _specs)
    for error in errors:
        log.warning(error)
    for note in notes:
        log.info(note)
    config["nav"] = nav
    return config


def on_page_markdown(markdown, page, config, files, **kwargs):
    path = page.file.src_path.replace("\\", "/")
    for problem in site_pages.page_problems(path, markdown, _specs):
        log.warning(f"docs/{path}: {problem}")
    markdown, _ = site_facts.regenerate(path, markdown, _specs)
    markdown = site_pages.collapsible_blocks(markdown)
    if path == site_pages.SPEED_PAGE:
        markdown, note = site_pages.speed_plot(markdown, config["docs_dir"])
        if note and note.startswith("error: "):
            log.warning(f"docs/{path}: {note[len('error: '):]}")
        elif note:
            log.info(note)
    return markdown
