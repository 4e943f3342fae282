# shellcheck shell=bash disable=SC2034 # the variables set here are used by the scripts sourcing it
# Sourced by every integration test script: paths from CTest's environment, a fresh scratch folder, and output
# checks. Checks read the programs' output, so a launcher that exits 0 without running the ranks still fails.
set -euo pipefail
: "${STRATA_PREFIX:?set by CTest: the build tree, which mirrors an install prefix}"
: "${STRATA_SOURCE:?set by CTest: the source tree}"
: "${WORK:?set by CTest: this test scratch folder}"

mpicc=$STRATA_PREFIX/bin/mpicc
mpicxx=$STRATA_PREFIX/bin/mpicxx
mpiexec=$STRATA_PREFIX/bin/mpiexec
# SKIP_RETURN_CODE of the tests, for a prerequisite that is absent (never for a failure).
skip=77

rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run_to FILE COMMAND...: runs the command with stdout and stderr in FILE, shows them, fails if it fails.
run_to() {
  local file=$1 status=0
  shift
  echo "+ $*"
  "$@" >"$file" 2>&1 || status=$?
  cat "$file"
  ((status == 0)) || fail "exit status $status from: $*"
}

# expect_once FILE REGEX...: each extended regular expression matches exactly one line of FILE.
expect_once() {
  local file=$1 pattern count
  shift
  for pattern in "$@"; do
    count=$(grep -Ec -- "$pattern" "$file" || true)
    ((count == 1)) || fail "$count lines of $file match '$pattern', expected 1"
  done
}

# expect_hello FILE N: each rank 0..N-1 greets exactly once, with size N, and no other greeting appears.
# A launcher prefix before the text ("[1] Hello ...") is allowed.
expect_hello() {
  local file=$1 n=$2 r count
  for ((r = 0; r < n; ++r)); do
    count=$(grep -c "Hello from rank $r of $n on [^ ]" "$file" || true)
    ((count == 1)) || fail "rank $r of $n greeted $count times in $file"
  done
  count=$(grep -c "Hello from rank" "$file" || true)
  ((count == n)) || fail "$count greetings in $file, expected $n"
  count=$(grep -c "MPI 4\.0 library: [^ ]" "$file" || true)
  ((count == 1)) || fail "rank 0 printed the MPI 4.0 library line $count times in $file"
}
