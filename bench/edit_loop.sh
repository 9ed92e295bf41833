#!/usr/bin/env bash
# The student's edit -> verdict loop: the time from a save of puzzles/p04_tiled.cu to the
# checker's verdict on the CPU backend, two ways:
#   1. `checker/run p04 --backend=cpu` after the save (build, run, record);
#   2. watch mode (`checker/run watch 4 --backend=cpu`): from the save to the line that ends
#      its re-run.
# Each save is a touch: the build sees a new file, the student's text stays as it is. The
# verdict is whatever the file earns (the stub fails on its first case; a solved kernel runs
# every case), and it is recorded as any run's is. Prints every run and the median. The
# machine should be otherwise idle: on 2 cores, every other process shows in the figure.
#
#   bench/edit_loop.sh [runs] [--solved]
#       runs      per way (default 7), after one run that builds
#       --solved  with the reference solution in puzzles/p04_tiled.cu for the measurement: the
#                 file and the course's progress are copied to build/edit-loop-backup/ first
#                 and put back when the script ends, however it ends
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs=7
solved=false
for arg in "$@"; do
  case "$arg" in
    --solved) solved=true ;;
    *[!0-9]*|"") echo "usage: bench/edit_loop.sh [runs] [--solved]" >&2; exit 2 ;;
    *) runs="$arg" ;;
  esac
done
[ "$runs" -ge 1 ] || { echo "usage: bench/edit_loop.sh [runs] [--solved]   (runs >= 1)" >&2; exit 2; }

if $solved; then
  backup=build/edit-loop-backup
  mkdir -p "$backup"
  cp -p puzzles/p04_tiled.cu "$backup/p04_tiled.cu"
  [ -f build/course-state.json ] && cp -p build/course-state.json "$backup/course-state.json"
  restore() {
    cp -p "$backup/p04_tiled.cu" puzzles/p04_tiled.cu
    if [ -f "$backup/course-state.json" ]; then cp -p "$backup/course-state.json" build/course-state.json
    else rm -f build/course-state.json; fi
    echo "puzzles/p04_tiled.cu and the course's progress are as they were (copies in $backup/)."
  }
  trap restore EXIT
  cp solutions/p04_tiled.cu puzzles/p04_tiled.cu
  echo "Measuring with the reference solution in puzzles/p04_tiled.cu."
fi
python=/usr/bin/python3  # as checker/run: Debian's interpreter, not a version manager's shim
[ -x "$python" ] || python=python3

echo "Warm-up: checker/run p04 --backend=cpu (builds what is missing)"
warm="$(checker/run p04 --backend=cpu 2>&1 || true)"
echo "${warm%%$'\n'*}"  # its first line: the preset, and why

"$python" - "$runs" <<'EOF'
import os, pty, select, statistics, subprocess, sys, time

runs = int(sys.argv[1])
source = os.path.join("puzzles", "p04_tiled.cu")

def touch():
    """A save without a change: a new time for the build, a closed write for inotify."""
    start = time.perf_counter()
    os.utime(source)
    open(source, "ab").close()
    return start

def report(name, times):
    print(f"{name}: median {statistics.median(times):.2f} s over {len(times)} runs "
          f"(min {min(times):.2f}, max {max(times):.2f}): " + " ".join(f"{t:.2f}" for t in times))

times = []
for _ in range(runs):
    start = touch()
    subprocess.run(["checker/run", "p04", "--backend=cpu"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
report("checker/run p04   ", times)

# Watch mode in a pseudo-terminal, as a student runs it; a re-run ends with the keys line.
pid, fd = pty.fork()
if pid == 0:
    os.environ["NO_COLOR"] = "1"
    os.execvp("checker/run", ["checker/run", "watch", "4", "--backend=cpu"])
marker = b"q quit"

def wait_for_marker(timeout=120):
    seen, deadline = b"", time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen += chunk
            if marker in seen:
                return
    sys.exit("watch mode did not finish a run in time:\n" + seen.decode(errors="replace")[-2000:])

wait_for_marker()
time.sleep(0.5)
times = []
for _ in range(runs):
    start = touch()
    wait_for_marker()
    times.append(time.perf_counter() - start)
    time.sleep(0.3)
os.write(fd, b"q")
os.waitpid(pid, 0)
report("watch mode re-run ", times)
EOF
