"""checker/nvcc's program (the script checker/nvcc runs it): nvcc's command line for the CPU
backend. course/nvcc_args.py reads the options, course/nvcc_driver.py does what they ask."""
import os
import signal
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.pycache_prefix = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "pycache")

from course import nvcc_args, nvcc_driver, program  # noqa: E402

USAGE = """usage: checker/nvcc [nvcc's options] FILE...

Builds a CUDA program for the course's CPU backend, as nvcc builds it for a GPU:
  checker/nvcc -o app kernels.cu main.cpp        compile and link
  checker/nvcc -c kernels.cu -o kernels.o        compile only (also -dc)
  make NVCC=<course>/checker/nvcc                a Makefile project, unchanged
  cmake -C <course>/checker/nvcc.cmake ...       a CMake project with the CUDA language
  checker/nvcc --print-toolkit-root              the folder laid out as a CUDA toolkit
The executable checks every launch and prints a summary at its exit; it exits 1 when a
launch found something and the program would have exited 0. docs/programs.md says more."""


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    cwd = os.environ.get("CHECKER_RUN_CWD", os.getcwd())
    try:
        inv = nvcc_args.parse(argv, cwd)
    except nvcc_args.UsageError as e:
        print(f"checker/nvcc: {e}. Run checker/nvcc --help for the options it takes.", file=sys.stderr)
        return 2
    if inv.phase == "help":
        print(USAGE)
        return 0
    if inv.phase == "version":
        print(nvcc_driver.VERSION)
        return 0
    try:
        tree = program.course_build(sys.stderr, announce=False)
        toolchain = nvcc_driver.read_toolchain(tree)
    except program.Stop as stop:
        print(f"checker/nvcc: {stop}", file=sys.stderr)
        return stop.status
    except OSError as e:
        print(f"checker/nvcc: the course build has no toolchain.json ({e.strerror}): reconfigure it "
              f"(cmake {tree})", file=sys.stderr)
        return 2
    driver = nvcc_driver.Driver(inv, toolchain, tree.resolve(), cwd)
    if inv.phase == "print-toolkit-root":
        try:
            driver.write_runtime_stand_ins(driver.link_line()[1])
        except nvcc_driver.Failed as failed:
            return failed.status
        print(driver.toolkit())  # checker/nvcc.cmake reads it
        return 0
    if inv.verbose:
        driver.say_toolkit()  # first, whatever follows: build systems read these lines
    if inv.unknown_inputs:
        print(f"checker/nvcc: {inv.unknown_inputs[0]}: checker/nvcc reads .cu, .cpp, .cc, .cxx, .c, .o and .a files",
              file=sys.stderr)
        return 2
    if not inv.inputs:
        print("checker/nvcc: no input files. Run checker/nvcc --help for the options it takes.", file=sys.stderr)
        return 2
    for path, _ in inv.inputs:
        if not path.is_file():
            print(f"checker/nvcc: {path}: no such file", file=sys.stderr)
            return 2
    try:
        return driver.execute()
    except nvcc_driver.Failed as failed:
        return failed.status
    except OSError as e:  # an output folder it cannot write, a file gone meanwhile
        where = f" {e.filename}" if e.filename else ""
        print(f"checker/nvcc: cannot write or read{where}: {e.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
