#!/usr/bin/env bash
# The fresh-machine test's second half (tests/platforms/fresh_debian.sh runs it as the first
# process of private mount and PID namespaces): mounts what a booted machine has, runs the README's two commands in the root as a
# new user would, times them, and checks what they did.
#
#   fresh_debian_inside.sh ROOT LOG_DIR RELEASE COURSE_FOLDER
set -euo pipefail
root="${1:?root}"
log_dir="${2:?log folder}"
release="${3:?release}"
course="${4:?the folder of the course in the root}"
name=fresh-debian
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { printf '%s: %s\n' "$name" "$*" >&2; }
# shellcheck source=debian_root_inside.sh
. "$here/debian_root_inside.sh"

# Runs a command in the course's folder; sets status and seconds; its output goes to LOG_DIR/<name>.log.
timed() {
  local log="$1" command="$2" start
  say "running: $command (output: $log_dir/$log.log)"
  start=$(date +%s)
  status=0
  run_in_root "$course" "$command" >"$log_dir/$log.log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  say "$command: exit status $status after $(minutes "$seconds")"
}
plain() { sed 's/\x1b\[[0-9;]*m//g' "$log_dir/$1.log"; }  # without colours, if any
# Read whole, not through `grep -q`: with pipefail, grep's early exit would fail the pipe.
has() { [[ "$1" == *"$2"* ]]; }

problems=()

timed p01 "checker/run p01"
p01_status=$status p01_seconds=$seconds
p01_text="$(plain p01)"
p01_result="$(grep -E '^Result: ' <<<"$p01_text" | tail -1 || true)"
[ "$p01_status" = 1 ] || problems+=("checker/run p01 exited with $p01_status; the stub's FAIL is 1")
[[ "$p01_result" =~ ^Result:\ 0\ of\ [0-9]+\ cases\ passed\.\ FAIL ]] ||
  problems+=("checker/run p01 printed no 'Result: 0 of N cases passed. FAIL' line (it printed: '${p01_result:-nothing}')")
has "$p01_text" 'Unwritten output' ||
  problems+=("checker/run p01 did not report the stub's unwritten output")
if grep -E '^Traceback|Configuring failed|Segmentation fault|core dumped' <<<"$p01_text" >/dev/null; then
  problems+=("checker/run p01 crashed or failed to configure (see p01.log)")
fi

timed test "checker/run test"
test_status=$status test_seconds=$seconds
test_text="$(plain test)"
summary="$(grep -E '^[0-9]+% tests passed' <<<"$test_text" | tail -1 || true)"
# checker/run test prints the skipped tests' reasons after CTest's summary, one per line.
skips="$(sed -n '/^Why tests were skipped:/,$p' <<<"$test_text" | tail -n +2 | grep -E '^  ' || true)"
[ "$test_status" = 0 ] || problems+=("checker/run test exited with $test_status")
[ -n "$summary" ] || problems+=("checker/run test printed no CTest summary")
# A reason that names a Debian package (tests say "(Debian package NAME)") or asks for an
# apt-get install is a package checker/run test should have installed. (Saying that a tool is
# "not a Debian package", as nvcc and ncu are not, names none.)
missing="$(printf '%s\n' "$skips" | grep -E '\(Debian package [a-z0-9.+-]+\)|apt-get' || true)"
[ -z "$missing" ] || problems+=("tests were skipped for a missing package:"$'\n'"$missing")

{
  echo "root: mmdebstrap --variant=minbase $release; checkout: git archive HEAD into $course; as root"
  echo "compilers: $(run_in_root / 'clang++ --version | head -1; g++ --version | head -1' | paste -sd ';' | sed 's/;/; /')"
  echo "checker/run p01: exit $p01_status in $(minutes "$p01_seconds") ($p01_seconds s): $p01_result"
  echo "checker/run test: exit $test_status in $(minutes "$test_seconds") ($test_seconds s): ${summary:-no summary}"
  if [ -n "$skips" ]; then echo "skipped, with the reasons the tests printed:"; echo "$skips"; else echo "no test skipped"; fi
} | tee "$log_dir/summary.txt"

if [ "${#problems[@]}" -gt 0 ]; then
  for p in "${problems[@]}"; do say "FAIL: $p"; done
  for name in p01 test; do
    echo "--- the end of $name.log ---"
    tail -n 40 "$log_dir/$name.log"
  done
  exit 1
fi
say "PASS: both commands did what the README says, on a fresh $release root"
