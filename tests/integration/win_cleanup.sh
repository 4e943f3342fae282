#!/usr/bin/env bash
# Shared-memory windows leave nothing in /dev/shm: a job that frees its windows, one that leaves them to
# MPI_Finalize, one whose rank is killed (SIGKILL) while the windows are in use, and a singleton (no mpiexec to
# clean up after it). The program (tests/mpi/win_cleanup.c) itself checks that the segments are gone while the
# windows are in use; here the whole job's names (strata_<job>_*) are checked once it has ended.
source "$(dirname "$0")/lib.sh"

run_to build.txt "$mpicc" -Wall -Wextra -Werror "$STRATA_SOURCE/tests/mpi/win_cleanup.c" -o win_cleanup

# expect_clean JOB: no /dev/shm name of that job (PMIx namespace, or singleton-<pid>) is left.
expect_clean() {
  local prefix="strata_${1//[^[:alnum:]]/_}_" left
  left=$(find /dev/shm -maxdepth 1 -name "${prefix}*" -printf '%f ')
  [[ -z $left ]] || fail "left in /dev/shm after job $1: $left"
  echo "nothing named ${prefix}* in /dev/shm"
}

# job_of FILE: the job name the program printed.
job_of() {
  local job
  job=$(sed -n 's/^.*win_cleanup [a-z]*: job \([^:]*\): no segment.*$/\1/p' "$1" | head -1)
  [[ -n $job && $job != - ]] || fail "no job name in $1"
  echo "$job"
}

for mode in free nofree; do
  run_to "$mode.txt" "$mpiexec" -n 3 ./win_cleanup "$mode"
  grep -q "win_cleanup $mode: finalized" "$mode.txt" || fail "rank 0 did not finalize in $mode.txt"
  expect_clean "$(job_of "$mode.txt")"
done

# A rank killed while the windows are in use: the job fails, mpiexec names the rank, nothing is left.
status=0
echo "+ $mpiexec -n 3 ./win_cleanup kill"
"$mpiexec" -n 3 ./win_cleanup kill >kill.txt 2>&1 || status=$?
cat kill.txt
((status != 0)) || fail "the job whose rank was killed exited with status 0"
grep -q "rank 2 .*signal 9" kill.txt || fail "mpiexec did not report rank 2 killed by signal 9"
! grep -q "DID NOT ABORT" kill.txt || fail "a rank left the barrier its killed peer never reached"
expect_clean "$(job_of kill.txt)"

# A singleton: its segments are named after its pid, and no launcher removes anything after it.
for mode in free nofree; do
  status=0
  ./win_cleanup "$mode" >"singleton-$mode.txt" 2>&1 &
  pid=$!
  wait "$pid" || status=$?
  cat "singleton-$mode.txt"
  ((status == 0)) || fail "singleton $mode exited with status $status"
  expect_clean "singleton-$pid"
done
echo PASS
