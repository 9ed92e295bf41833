"""checker/run docs: build the course site (MkDocs, Material theme) from docs/ into build/site.

Always --strict: a broken link, a missing page or a page whose facts disagree with its spec
(checker/cli/course/site_facts.py) fails the build. MkDocs comes from Debian packages, the
`docs` group of checker/debian-packages.txt, installed the way checker/run installs the others.
"""
import os
import re
import shutil
import subprocess
import sys

from course import paths, site_pages, writable
from course.style import Style

HELP = "build the course site into build/site (--serve: on localhost; --update: refresh generated tables)"

DEFAULT_PACKAGES = ["mkdocs", "mkdocs-material"]
SITE = paths.ROOT / "build" / "site"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def add_arguments(parser):
    parser.add_argument("--serve", action="store_true",
                        help="serve the site on localhost, rebuilding it when a page changes")
    parser.add_argument("--port", type=int, default=8000, help="the port for --serve (default 8000)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the tables that docs/*.md generate from checker/specs, and stop")
    parser.add_argument("--site-dir", metavar="DIR",
                        help="build into DIR instead of build/site")


def run(args):
    style = Style.for_stdout()
    if args.update:
        return update(style)
    status = ensure_mkdocs()
    if status:
        return status
    if args.serve:
        return serve(args.port, style)
    return build(args.site_dir, style)


def update(style):
    specs = site_pages.load_specs(paths.SPECS)
    changed = site_pages.update_files(paths.DOCS, specs)
    for page in changed:
        print(f"  updated {shown(page)}")
    print(f"{len(changed)} page{'s' if len(changed) != 1 else ''} updated from checker/specs and docs/dev/runs."
          if changed else "Every generated block already agrees with checker/specs and docs/dev/runs.")
    leftover = []
    for page in site_pages.markdown_pages(paths.DOCS) + [site_pages.README]:
        text = (paths.DOCS / page).read_text(encoding="utf-8")
        leftover += [f"{shown(page)}: {p}" for p in site_pages.page_problems(page, text, specs)]
    if leftover:
        print(style.yellow("These facts are in the prose: fix them by hand."))
        for line in leftover:
            print(f"  {line}")
        return 1
    return 0


def shown(page):
    """A page under docs/ (or ../README.md) as the course folder names it."""
    return os.path.normpath(f"docs/{page}")


def build(site_dir, style):
    out = os.path.abspath(site_dir) if site_dir else str(SITE)
    writable.require(out)  # MkDocs would say it with a traceback of its own
    command = ["mkdocs", "build", "--strict", "--clean", "--config-file", str(paths.ROOT / "mkdocs.yml"),
               "--site-dir", out]
    result = subprocess.run(command, cwd=paths.ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = list(interesting(result.stdout))
    if result.returncode != 0 and not any(line.startswith(("warning: ", "error: ")) for line in lines):
        lines = [ANSI.sub("", line) for line in result.stdout.splitlines()]  # a crash: show it all
    for line in lines:
        print(line)
    shown = os.path.relpath(out, paths.ROOT) if out.startswith(str(paths.ROOT)) else out
    if result.returncode != 0:
        warned = "Aborted with" in result.stdout and "in strict mode" in result.stdout
        print(style.red("The site did not build") + (": the warnings above are errors here (--strict)." if warned
                                                     else ": MkDocs's messages are above."))
        if "Unrecognised theme name" in result.stdout:
            print(f"The Material theme is missing: {install_command(['mkdocs-material'])}")
        return 1
    print(f"Built the site in {shown}: open {shown}/index.html in a browser, "
          "or serve it with checker/run docs --serve.")
    return 0


def serve(port, style):
    address = f"127.0.0.1:{port}"
    print(style.bold(f"Serving the course site at http://{address}/") + " (it rebuilds when a page changes; "
          "Ctrl-C stops it).")
    sys.stdout.flush()
    command = ["mkdocs", "serve", "--strict", "--config-file", str(paths.ROOT / "mkdocs.yml"),
               "--dev-addr", address]
    server = subprocess.Popen(command, cwd=paths.ROOT)
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()
        server.wait(timeout=10)
        return 0


def interesting(output):
    """MkDocs's log without its routine lines: warnings, errors and the course hooks' notes."""
    keep = False
    for raw in output.splitlines():
        line = ANSI.sub("", raw)
        level = re.match(r"(INFO|WARNING|ERROR|DEBUG)\s+-\s+(.*)", line)
        if level:
            keep = level.group(1) in ("WARNING", "ERROR") or level.group(2).startswith("docs/")
            if keep:
                yield f"{level.group(1).lower()}: {level.group(2)}" if level.group(1) != "INFO" else level.group(2)
        elif line.startswith("Aborted") or (keep and line.strip()):
            yield line
        elif not line.strip():
            keep = False


# ---------------------------------------------------------------- the Debian packages

def packages():
    """The `docs` group of checker/debian-packages.txt (MkDocs and its theme)."""
    listed = paths.ROOT / "checker" / "debian-packages.txt"
    found = []
    if listed.is_file():
        for line in listed.read_text(encoding="utf-8").splitlines():
            words = line.split("#", 1)[0].split()
            if len(words) == 2 and words[1] == "docs":
                found.append(words[0])
    return found or DEFAULT_PACKAGES


def missing(names):
    if not shutil.which("dpkg-query"):
        return [] if shutil.which("mkdocs") else names
    out = []
    for name in names:
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True).stdout
        if "ok installed" not in status:
            out.append(name)
    return out


def install_command(names, sudo="sudo "):
    return f"{sudo}apt-get update && {sudo}apt-get install -y {' '.join(names)}"


def ensure_mkdocs():
    """0 when MkDocs and the theme are there (installing them when this user can), else 2."""
    need = missing(packages())
    if not need:
        return 0
    sudo = None
    if shutil.which("apt-get"):
        if os.geteuid() == 0:
            sudo = []
        elif shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.DEVNULL).returncode == 0:
            sudo = ["sudo"]
    if sudo is None:
        print(f"checker/run docs needs {' and '.join(need)}. Install them with:\n  {install_command(need)}",
              file=sys.stderr)
        return 2
    print(f"Installing: {' '.join(need)}", file=sys.stderr)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    ok = subprocess.run(sudo + ["apt-get", "update", "-qq"], env=env).returncode == 0 and \
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq"] + need, env=env,
                       stdout=subprocess.DEVNULL).returncode == 0
    if not ok or missing(need):
        print(f"Installing failed. The command is:\n  {install_command(need)}", file=sys.stderr)
        return 2
    return 0
