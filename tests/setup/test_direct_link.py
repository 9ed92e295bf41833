#!/usr/bin/env python3
"""checker/engine/tools/direct_link.cpp, which links a checker by running the linker that clang's
driver would run, without starting the driver. For each checker named, its link command as the
build runs it (ninja -t commands), run four ways into separate folders:

  the driver alone                      the reference
  the tool, no template kept yet        asks the driver twice (a probe, then this link to prove
                                        the template), keeps a template; the same bytes
  the tool again                        the driver is not started; the same bytes
  the tool with a template it must not  a template marked unusable, or one naming a file that is
  use                                   gone: the driver runs (or is asked again); the same bytes

a link with a source file among its inputs goes to the driver, and an input that does not exist
gets the driver's own message and a failed link. The compiler is
a script that logs each start of the driver and runs the build's compiler, so the test sees how
often the driver ran.

    test_direct_link.py --build <tree> --tool <direct_link> <checker>...
"""
import argparse
import filecmp
import os
import shlex
import subprocess
import sys
import tempfile


def link_command(build, target, tool):
    """The driver's command line that the build runs to link `target`, and its output's index."""
    done = subprocess.run(["ninja", "-C", build, "-t", "commands", target], capture_output=True, text=True,
                          check=True)
    line = done.stdout.strip().splitlines()[-1]
    words = shlex.split(line)
    if tool not in words:
        sys.exit(f"{target}'s link does not run {tool}: {line}")
    words = words[words.index(tool) + 3:]  # after TOOL TEMPLATE_DIR --
    if "&&" in words:
        words = words[:words.index("&&")]
    return words, words.index("-o") + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--tool", required=True)
    parser.add_argument("targets", nargs="+")
    args = parser.parse_args()
    failures = []

    def expect(condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as scratch:
        log = os.path.join(scratch, "driver-starts.log")
        for target in args.targets:
            words, out_at = link_command(args.build, target, args.tool)
            wrapper = os.path.join(scratch, "clang++")
            with open(wrapper, "w", encoding="utf-8") as handle:
                handle.write(f"#!/bin/sh\necho start >> {shlex.quote(log)}\nexec {shlex.quote(words[0])} \"$@\"\n")
            os.chmod(wrapper, 0o755)
            templates = os.path.join(scratch, "templates-" + target.replace("/", "-"))
            name = os.path.basename(target)

            def link(way, through_tool):
                folder = os.path.join(scratch, way + "-" + target.replace("/", "-"))
                os.makedirs(folder, exist_ok=True)
                output = os.path.join(folder, name)
                command = [wrapper] + words[1:]
                command[out_at] = output
                if through_tool:
                    command = [args.tool, templates, "--"] + command
                open(log, "w").close()
                done = subprocess.run(command, cwd=args.build, capture_output=True, text=True)
                with open(log, encoding="utf-8") as handle:
                    starts = len(handle.read().split())
                return done, output, starts

            done, reference, starts = link("driver", False)
            if done.returncode != 0:
                sys.exit(f"{target}: the driver's own link failed:\n{done.stderr}")
            done, output, starts = link("first", True)
            kept = [f for f in os.listdir(templates) if f.endswith(".link")] if os.path.isdir(templates) else []
            expect(done.returncode == 0 and filecmp.cmp(reference, output, shallow=False),
                   f"{target}: the first link through the tool gives the driver's bytes")
            expect(starts == 2 and len(kept) == 1, f"{target}: the first link asks the driver twice and keeps one "
                   f"template (asked {starts}, kept {len(kept)})")
            template = os.path.join(templates, kept[0]) if kept else None
            if template:
                with open(template, encoding="utf-8") as handle:
                    text = handle.read()
                expect(text.startswith("direct_link template 1\n"), f"{target}: the kept template is usable")

            done, output, starts = link("again", True)
            expect(done.returncode == 0 and filecmp.cmp(reference, output, shallow=False) and starts == 0,
                   f"{target}: the next link does not start the driver and gives its bytes (driver started {starts} times)")

            if template:
                # The last runtime file the template names (crtn.o), as if the installation had moved it.
                lines = text.split("\n")
                last = max(i for i, line in enumerate(lines) if line.startswith("/") and line.endswith(".o"))
                lines[last] = "/no-such-folder/" + os.path.basename(lines[last])
                with open(template, "w", encoding="utf-8") as handle:
                    handle.write("\n".join(lines))
                done, output, starts = link("gone", True)
                expect(done.returncode == 0 and filecmp.cmp(reference, output, shallow=False) and starts == 2,
                       f"{target}: a template naming a file that is gone is made again (driver started {starts} times)")
                with open(template, "w", encoding="utf-8") as handle:  # the same flags' key, on its second line
                    handle.write("direct_link unusable 1\n" + text.split("\n")[1] + "\n")
                done, output, starts = link("unusable", True)
                expect(done.returncode == 0 and filecmp.cmp(reference, output, shallow=False) and starts == 1,
                       f"{target}: flags whose template could not be proved link through the driver (started {starts} times)")
                os.remove(template)

            # A source file among the inputs is a compile job of the driver's: the driver runs.
            source = os.path.join(scratch, "extra.c")
            with open(source, "w", encoding="utf-8") as handle:
                handle.write("int direct_link_extra_input;\n")
            link("again", True)  # a template again
            words.insert(out_at + 1, source)
            done, output, starts = link("source", True)
            del words[out_at + 1]
            expect(done.returncode == 0 and starts == 1,
                   f"{target}: a link with a source file among its inputs goes to the driver (started {starts} times)")

        # An input that is not there: the driver's message, and a failed link.
        words, out_at = link_command(args.build, args.targets[0], args.tool)
        missing = os.path.join(scratch, "no-such-object.o")
        command = [args.tool, os.path.join(scratch, "templates-missing"), "--"] + words[:out_at + 1] + [missing] + words[out_at + 1:]
        command[command.index("-o") + 1] = os.path.join(scratch, "never-linked")
        done = subprocess.run(command, cwd=args.build, capture_output=True, text=True)
        expect(done.returncode != 0 and "no-such-object.o" in done.stderr,
               "an input that does not exist fails the link with the driver's message")

    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("direct_link: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
