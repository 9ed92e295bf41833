"""checker/run (or checker/run watch [N]): run the current puzzle on every save of its file.

It starts at the first puzzle not passed, runs it, and runs it again each time its file is
saved. When it passes, it says so and offers the next puzzle: n moves on. Keys: n next,
h hint, l list, r run again, q quit; Ctrl-C leaves too (exit status 130).
"""
import select
import sys

from commands import hint, list as list_command
from course import build, paths, runner, specs, state
from course.style import Style, marks, progress_bar
from course.watching import Keys, Saves

USAGE = "watch [N]"  # for checker/run help
HELP = "run your current puzzle again on every save (what checker/run does with no command)"
KEYS = "n next puzzle · h hint · l list · r run again · q quit"
KEYS_ASCII = "n next puzzle, h hint, l list, r run again, q quit"
WORDS = {"next": "n", "hint": "h", "list": "l", "run": "r", "quit": "q", "exit": "q", "\x04": "q"}


def add_arguments(parser):
    parser.add_argument("puzzle", nargs="?", help="start at this puzzle (default: the first one not passed)")
    runner.add_checker_options(parser)
    parser.add_argument("--poll", action="store_true",
                        help="look at the file every 0.3 s instead of using inotify (for shared folders)")


class Session:
    def __init__(self, all_specs, current, preset, options, poll):
        self.specs = all_specs
        self.current = current
        self.preset = preset
        self.options = options
        self.poll = poll
        self.out = sys.stdout
        self.style = Style.for_stdout()
        self.marks = marks()
        self.keys_line = KEYS if self.marks[0] == "✓" else KEYS_ASCII

    def say(self, text=""):
        print(text, file=self.out, flush=True)

    def loop(self):
        with Keys(sys.stdin) as keys, Saves(paths.PUZZLES, poll=self.poll) as saves:
            self.saves = saves
            self.run_current()
            while True:
                fds = saves.fds() + ([] if keys.closed else [keys.fd])
                # With inotify its pipe wakes us; polling wakes every 0.3 s.
                ready = select.select(fds, [], [], saves.timeout())[0]
                if saves.check(ready):
                    self.run_current()
                if keys.closed or keys.fd not in ready:
                    continue
                for typed in keys.read():
                    key = WORDS.get(typed, typed)
                    if key == "q":
                        self.say("Stopped watching.")
                        return 0
                    if key == "n":
                        self.next_puzzle()
                    elif key == "h":
                        self.say()
                        self.say("\n".join(hint.lines(self.current, self.out)))
                        self.footer_keys()
                    elif key == "l":
                        self.say()
                        self.say("\n".join(list_command.lines(self.out)))
                        self.footer_keys()
                    elif key == "r":
                        self.run_current()
                    else:
                        self.say(f"'{typed}' is not a key of watch mode. Keys: {self.keys_line}")

    def run_current(self):
        spec = self.current
        self.saves.watch(f"{spec['id']}.cu")
        if self.out.isatty():
            self.out.write("\033[H\033[2J")  # a clear screen: only this run's verdict is shown
        self.say(self.style.dim(f"Watching {paths.relative(paths.puzzle_file(spec['id']))} "
                                f"({self.saves.mechanism}): puzzle {spec['number']}, {spec['title']}"))
        self.say(self.style.dim(self.preset.line()))
        if self.saves.note:
            self.say(self.style.dim(f"Polling: {self.saves.note}."))
        outcome = runner.run(spec, self.options, self.preset, out=self.out)
        self.say()
        self.say(self.style.dim("─" * 60 if self.marks[0] == "✓" else "-" * 60))
        number = spec["number"]
        if outcome.verdict == state.PASSED:
            self.say(self.style.green(f"{self.marks[0]} Puzzle {number} passes."))
            following = self.following()
            if following is None:
                self.say("Every puzzle passes: well done. checker/run verify runs them all again.")
            else:
                self.say(f"Next: puzzle {following['number']}, {following['title']} "
                         f"({paths.relative(paths.puzzle_file(following['id']))}). Press n to start it.")
        elif outcome.verdict in (state.FAILING, state.COMPILE_ERROR):
            what = "does not compile" if outcome.verdict == state.COMPILE_ERROR else "is not solved yet"
            self.say(self.style.red(f"{self.marks[1]} Puzzle {number} {what}.") +
                     f" Save {paths.relative(paths.puzzle_file(spec['id']))} to run it again; h for a hint.")
        else:
            self.say(self.style.yellow(f"! Puzzle {number}: no verdict (see above)."))
        self.footer_keys()

    def footer_keys(self):
        data = state.load()
        done = sum(state.status(s["id"], data) == state.PASSED for s in self.specs)
        self.say(self.style.dim(f"{progress_bar(done, len(self.specs), width=10)}  {self.keys_line}"))

    def following(self):
        """The next puzzle not passed after the current one, wrapping around; None when none."""
        data = state.load()
        number = self.current["number"]
        ordered = [s for s in self.specs if s["number"] > number] + [s for s in self.specs if s["number"] <= number]
        for spec in ordered:
            if spec is not self.current and state.status(spec["id"], data) != state.PASSED:
                return spec
        return None

    def next_puzzle(self):
        following = self.following()
        if following is None:
            self.say("No other puzzle is left to solve. checker/run watch N opens puzzle N anyway.")
            self.footer_keys()
            return
        self.current = following
        self.run_current()


def run(args):
    all_specs = specs.load_all()
    if args.puzzle:
        try:
            current = specs.find(args.puzzle, all_specs)
        except specs.PuzzleNotFound as error:
            print(f"checker/run watch: {error}", file=sys.stderr)
            return 2
    else:
        current = state.first_unsolved(all_specs)
        if current is None:
            print("Every puzzle passes: well done. checker/run verify runs them all again; "
                  "checker/run watch N opens puzzle N.")
            return 0
    session = Session(all_specs, current, build.choose_preset(args.backend),
                      runner.checker_options(args), args.poll)
    try:
        return session.loop()
    except KeyboardInterrupt:  # the terminal's mode is already restored by the with-blocks
        print("\nStopped watching.", flush=True)
        return 130
