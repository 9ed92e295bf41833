"""The dev container (.devcontainer/) builds the environment the README's commands make.

Every devcontainer.json names only files of the checkout (its Dockerfile, the build context, the
commands it runs) and a stage its Dockerfile has; the Dockerfile pins its base image to a dated
tag or a digest (never `latest`, never a bare `bookworm`), copies only files that exist, and
installs the course's packages through checker/install-packages reading
checker/debian-packages.txt: no course package named by hand. Every by-hand build command the
Dockerfile's header and docs/dev/platforms.md show builds the stage devcontainer.json builds
(`course`), unless it names another stage itself: without --target, docker builds the last stage,
which is the CUDA one. The broken recipes below prove each check can fail. No Docker is needed:
this reads the files. Standard library only.
"""
import json
import re
import shlex
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEVCONTAINER = ROOT / ".devcontainer"
INSTALLER = "checker/install-packages"
PACKAGE_LIST = "checker/debian-packages.txt"
CLANGD = "llvm-vs-code-extensions.vscode-clangd"
# Where the build links the compilation database of the tree configured last
# (checker/cmake/EditorDatabase.cmake).
DATABASE = "build/compile_commands.json"
# A dated tag of Debian's official image (bookworm-20250520-slim) or any image by digest.
DATED_TAG = re.compile(r"(^|-)(19|20)\d{6}(-|$)")
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")
PLATFORMS_PAGE = ROOT / "docs" / "dev" / "platforms.md"
# A build command as the docs write it: up to the end of its line, its code span or its comment.
BUILD_COMMAND = re.compile(r"\b(?:docker|podman)(?: buildx)? build\b[^`\n#(]*")


def jsonc(text):
    """devcontainer.json is JSON with comments and trailing commas: both dropped, strings kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        else:
            out.append(c)
            i += 1
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))


def instructions(text):
    """The Dockerfile's instructions, as (line number, keyword, arguments): continuations
    joined, comments dropped."""
    result, pending, start = [], "", 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = (pending + stripped).strip()
        pending = ""
        keyword, _, rest = whole.partition(" ")
        result.append((start, keyword.upper(), rest.strip()))
    return result


def course_packages(root):
    """The packages of checker/debian-packages.txt."""
    lines = (root / PACKAGE_LIST).read_text(encoding="utf-8").splitlines()
    return {l.split()[0] for l in lines if l.strip() and not l.startswith("#")}


def dockerfile_problems(text, root, context):
    """What is wrong with a Dockerfile (read from text; COPY sources relative to context)."""
    problems = []
    steps = instructions(text)
    args = {}
    stages = set()
    copied = {}  # a COPY destination file -> its source, relative to the context
    installs_through_installer = False
    listed = course_packages(root)
    for number, keyword, rest in steps:
        where = f"Dockerfile:{number}"
        if keyword == "ARG" and "=" in rest:
            name, _, value = rest.partition("=")
            args.setdefault(name.strip(), value.strip().strip('"'))
        elif keyword == "FROM":
            words = [w for w in rest.split() if not w.startswith("--")]
            image = re.sub(r"\$\{?(\w+)\}?", lambda m: args.get(m.group(1), m.group(0)), words[0])
            if len(words) >= 3 and words[1].upper() == "AS":
                stages.add(words[2])
            if image in stages:
                continue
            name_tag = image.split("@")[0]
            tag = name_tag.rsplit(":", 1)[1] if ":" in name_tag.rsplit("/", 1)[-1] else ""
            if "$" in image:
                problems.append(f"{where}: the base image '{words[0]}' has no default (ARG ... = image)")
            elif not DIGEST.search(image) and (not tag or tag == "latest" or not DATED_TAG.search(tag)):
                problems.append(f"{where}: the base image '{image}' is not pinned: use a dated tag "
                                "(debian:bookworm-YYYYMMDD-slim) or a digest (@sha256:...)")
        elif keyword in ("COPY", "ADD"):
            words = shlex.split(rest)
            if any(w.startswith("--from=") for w in words):
                continue
            words = [w for w in words if not w.startswith("--")]
            *sources, destination = words
            for source in sources:
                if re.match(r"^[a-z]+://", source):
                    problems.append(f"{where}: '{source}' is downloaded at build time")
                elif not (context / source).exists():
                    problems.append(f"{where}: COPY source '{source}' is not in the build context")
                else:
                    target = destination.rstrip("/") + "/" + Path(source).name if destination.endswith("/") \
                        else destination
                    copied[target] = source
        elif keyword == "RUN":
            for command in re.split(r"&&|\|\||;", rest):
                words = shlex.split(command)
                while words and (re.match(r"^\w+=", words[0]) or words[0] == "sudo"):
                    words = words[1:]  # VAR=value, sudo: the command comes after them
                words = [w for w in words if not w.startswith(">")]
                if not words:
                    continue
                program = words[0]
                if copied.get(program) == INSTALLER:
                    installs_through_installer = True
                    folder = program.rsplit("/", 1)[0]
                    if copied.get(f"{folder}/{Path(PACKAGE_LIST).name}") != PACKAGE_LIST:
                        problems.append(f"{where}: the installer runs without {PACKAGE_LIST} beside it "
                                        f"(COPY both to {folder}/)")
                    if len(words) > 1:
                        problems.append(f"{where}: the installer installs only groups {words[1:]}; "
                                        "the container needs every group (no argument)")
                if program in ("apt-get", "apt") and "install" in words:
                    named = sorted(set(w for w in words[words.index("install") + 1:]
                                       if not w.startswith("-")) & listed)
                    if named:
                        problems.append(f"{where}: {', '.join(named)} installed by hand: the course's "
                                        f"packages come from {PACKAGE_LIST} through {INSTALLER}")
    if not installs_through_installer:
        problems.append(f"Dockerfile: no RUN of {INSTALLER} (COPY it and {PACKAGE_LIST}, then run it)")
    return problems, stages


def stages_in_order(text):
    """The Dockerfile's stages (FROM ... AS name), first to last."""
    stages = []
    for _, keyword, rest in instructions(text):
        words = rest.split()
        if keyword == "FROM" and len(words) >= 3 and words[-2].upper() == "AS":
            stages.append(words[-1])
    return stages


def build_commands(text):
    """The build commands a text shows with options (`docker build --target course -f ...`):
    a mention such as "(or podman build)" has none and is not one."""
    found = []
    for match in BUILD_COMMAND.finditer(text):
        words = match.group(0).split()
        if any(w.startswith("-") for w in words):
            found.append(" ".join(words))
    return found


def built_stage(command, stages):
    """(the stage a build command builds, whether it names it): its --target, else the last."""
    words = command.split()
    for i, word in enumerate(words):
        if word.startswith("--target="):
            return word.split("=", 1)[1], True
        if word == "--target" and i + 1 < len(words):
            return words[i + 1], True
    return stages[-1], False


def by_hand_problems(texts, dockerfile_text, wanted):
    """What is wrong with the by-hand build commands of texts ({where: text}): each must build
    `wanted` (devcontainer.json's target), unless it names another stage of the Dockerfile."""
    problems = []
    stages = stages_in_order(dockerfile_text)
    for where, text in texts.items():
        for command in build_commands(text):
            stage, named = built_stage(command, stages)
            if stage not in stages:
                problems.append(f"{where}: `{command}` builds '{stage}', which is not a stage of the Dockerfile")
            elif not named and stage != wanted:
                problems.append(f"{where}: `{command}` builds the last stage, '{stage}', not '{wanted}' "
                                f"(add --target {wanted})")
    return problems


def by_hand_texts(root):
    """Where the by-hand commands are written: the Dockerfile's header and the platforms page."""
    dockerfile = (root / ".devcontainer" / "Dockerfile").read_text(encoding="utf-8")
    header = "\n".join(l for l in dockerfile.splitlines() if l.startswith("#"))
    return {"Dockerfile": header, "docs/dev/platforms.md": (root / "docs" / "dev" / "platforms.md")
            .read_text(encoding="utf-8")}


def config_problems(config, folder, root):
    """What is wrong with one devcontainer.json (parsed), in folder."""
    problems = []
    build = config.get("build", {})
    dockerfile = folder / build.get("dockerfile", "")
    context = (folder / build.get("context", ".")).resolve()
    if "dockerfile" not in build or not dockerfile.is_file():
        return [f"build.dockerfile '{build.get('dockerfile')}' is not a file of the checkout"]
    if not context.is_dir() or not (context == root or root in context.parents):
        problems.append(f"build.context '{build.get('context')}' is not a folder of the checkout")
    found, stages = dockerfile_problems(dockerfile.read_text(encoding="utf-8"), root, context)
    problems += found
    if "target" in build and build["target"] not in stages:
        problems.append(f"build.target '{build['target']}' is not a stage of {dockerfile.name}")
    for key in ("onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand"):
        if key in config:
            program = shlex.split(config[key])[0]
            if "/" in program and not (root / program).is_file():
                problems.append(f"{key} runs '{program}', which is not a file of the checkout")
    user = config.get("remoteUser")
    if user and user != "root" and f"USERNAME={user}" not in dockerfile.read_text(encoding="utf-8"):
        problems.append(f"remoteUser '{user}' is not the user the Dockerfile makes")
    vscode = config.get("customizations", {}).get("vscode", {})
    if CLANGD not in vscode.get("extensions", []):
        problems.append(f"the clangd extension ({CLANGD}) is not recommended")
    wanted = "--compile-commands-dir=${containerWorkspaceFolder}/" + DATABASE.rsplit("/", 1)[0]
    if wanted not in vscode.get("settings", {}).get("clangd.arguments", []):
        problems.append(f"clangd is not pointed at the checkout's {DATABASE} ({wanted})")
    return problems


def configs(root):
    return sorted((root / ".devcontainer").glob("**/devcontainer.json"))


class Recipes(unittest.TestCase):
    """The committed recipes."""

    def test_there_is_a_default_config(self):
        self.assertTrue((DEVCONTAINER / "devcontainer.json").is_file())

    def test_every_config_and_its_dockerfile(self):
        for path in configs(ROOT):
            with self.subTest(config=path.relative_to(ROOT).as_posix()):
                self.assertEqual(config_problems(jsonc(path.read_text(encoding="utf-8")), path.parent, ROOT), [])


    def test_the_by_hand_commands_build_the_course_stage(self):
        dockerfile = (DEVCONTAINER / "Dockerfile").read_text(encoding="utf-8")
        wanted = jsonc((DEVCONTAINER / "devcontainer.json").read_text(encoding="utf-8"))["build"]["target"]
        texts = by_hand_texts(ROOT)
        self.assertEqual(by_hand_problems(texts, dockerfile, wanted), [])
        # Each place shows at least one: a check of no command at all would pass by itself.
        for where, text in texts.items():
            with self.subTest(where=where):
                self.assertTrue(any(built_stage(c, stages_in_order(dockerfile)) == (wanted, True)
                                    for c in build_commands(text)), where)


class BrokenRecipes(unittest.TestCase):
    """Each check fails on the recipe broken its way."""

    def setUp(self):
        self.dockerfile = (DEVCONTAINER / "Dockerfile").read_text(encoding="utf-8")

    def problems(self, text):
        return dockerfile_problems(text, ROOT, ROOT)[0]

    def test_the_committed_dockerfile_passes(self):
        self.assertEqual(self.problems(self.dockerfile), [])

    def test_latest_or_an_undated_tag_is_not_pinned(self):
        for image in ("debian:latest", "debian", "debian:bookworm-slim", "debian:12"):
            with self.subTest(image=image):
                broken = re.sub(r"ARG DEBIAN_IMAGE=\S+", f"ARG DEBIAN_IMAGE={image}", self.dockerfile)
                self.assertTrue(any("is not pinned" in p for p in self.problems(broken)), image)
        pinned = re.sub(r"ARG DEBIAN_IMAGE=\S+", "ARG DEBIAN_IMAGE=debian:bookworm-slim@sha256:" + "a" * 64,
                        self.dockerfile)
        self.assertEqual(self.problems(pinned), [])

    def test_a_missing_copy_source(self):
        broken = self.dockerfile.replace("checker/debian-packages.txt /opt", "checker/no-such-list.txt /opt")
        self.assertIn("COPY source 'checker/no-such-list.txt' is not in the build context",
                      " ".join(self.problems(broken)))

    def test_a_hand_written_package_list(self):
        broken = self.dockerfile.replace("/opt/course-setup/checker/install-packages \\",
                                         "apt-get install -y cmake clang ninja-build \\")
        said = " ".join(self.problems(broken))
        self.assertIn("clang, cmake, ninja-build installed by hand", said)
        self.assertIn("no RUN of checker/install-packages", said)

    def test_the_installer_without_its_list_or_with_fewer_groups(self):
        broken = self.dockerfile.replace(" checker/debian-packages.txt /opt", " /opt")
        self.assertIn("without checker/debian-packages.txt beside it", " ".join(self.problems(broken)))
        broken = self.dockerfile.replace("/opt/course-setup/checker/install-packages \\",
                                         "/opt/course-setup/checker/install-packages core \\")
        self.assertIn("installs only groups ['core']", " ".join(self.problems(broken)))

    def test_a_config_naming_what_does_not_exist(self):
        config = jsonc((DEVCONTAINER / "devcontainer.json").read_text(encoding="utf-8"))
        for change, expected in (
                (lambda c: c["build"].update(dockerfile="Dockerfile.missing"), "is not a file of the checkout"),
                (lambda c: c["build"].update(target="no-such-stage"), "is not a stage"),
                (lambda c: c.update(postCreateCommand="checker/no-such-command list"), "not a file of the checkout"),
                (lambda c: c.update(remoteUser="somebody"), "is not the user the Dockerfile makes"),
                (lambda c: c["customizations"]["vscode"].update(extensions=[]), "clangd extension"),
                (lambda c: c["customizations"]["vscode"]["settings"].update({"clangd.arguments": []}),
                 "clangd is not pointed at")):
            broken = json.loads(json.dumps(config))
            change(broken)
            with self.subTest(expected=expected):
                self.assertIn(expected, " ".join(config_problems(broken, DEVCONTAINER, ROOT)))

    def test_a_by_hand_command_without_its_target_builds_the_cuda_stage(self):
        texts = by_hand_texts(ROOT)
        broken = {where: text.replace("--target course ", "") for where, text in texts.items()}
        said = " ".join(by_hand_problems(broken, self.dockerfile, "course"))
        for where in texts:
            with self.subTest(where=where):
                self.assertIn(f"{where}: `docker build -f .devcontainer/Dockerfile -t matmul-puzzles .` builds the "
                              "last stage, 'course-cuda', not 'course'", said)
        # The same commands are right where course is the last stage, and a stage that does not
        # exist is named.
        reordered = self.dockerfile + "\nFROM course AS course\n"
        self.assertEqual(by_hand_problems(broken, reordered, "course"), [])
        self.assertIn("builds 'no-such-stage', which is not a stage",
                      " ".join(by_hand_problems({"x": "`docker build --target no-such-stage .`"}, self.dockerfile,
                                                "course")))
        # The CUDA variant's command names its stage: it is not a mistake.
        self.assertEqual(by_hand_problems({"x": "`docker build --target course-cuda ...`"}, self.dockerfile,
                                          "course"), [])

    def test_comments_and_trailing_commas_are_read(self):
        self.assertEqual(jsonc('// a\n{"a": "x // y", /* b */ "c": [1, 2,],}\n'), {"a": "x // y", "c": [1, 2]})


if __name__ == "__main__":
    program = unittest.main(exit=False, verbosity=1)
    sys.exit(0 if program.result.wasSuccessful() else 1)
