#!/usr/bin/env bash
# One mpiexec behaviour per call: launcher_test.sh MPIEXEC CLIENT CASE. Exits non-zero with the reason and
# the captured output when mpiexec misbehaves.
#
# The client runs under a per-case name (a symlink lc_<case>), so "no process left behind" can be checked
# with pgrep even while ctest runs other cases in parallel. Every run gets its own TMPDIR, which must be
# empty again afterwards: mpiexec removes its PMIx directory on every exit path.
set -u
MPIEXEC=$1
CLIENT_BIN=$2
CASE=$3

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
NAME="lc_${CASE:0:12}" # the kernel keeps 15 characters of a command name
CLIENT="$WORK/$NAME"
ln -s "$CLIENT_BIN" "$CLIENT"
mkdir "$WORK/tmp"

fail() {
  echo "FAIL [$CASE]: $*"
  echo "--- stdout"; cat "$WORK/out" 2>/dev/null
  echo "--- stderr"; cat "$WORK/err" 2>/dev/null
  exit 1
}

# run ARGS...: mpiexec's stdout/stderr go to $WORK/out and $WORK/err; sets STATUS and ELAPSED_MS.
# Standard input comes from $STDIN (default /dev/null).
run() {
  local start=$(date +%s%N)
  TMPDIR="$WORK/tmp" "$MPIEXEC" "$@" >"$WORK/out" 2>"$WORK/err" <"${STDIN:-/dev/null}"
  STATUS=$?
  ELAPSED_MS=$(( ($(date +%s%N) - start) / 1000000 ))
  [ -z "$(ls -A "$WORK/tmp")" ] || fail "mpiexec left files in TMPDIR: $(ls -A "$WORK/tmp")"
}

expect_status() { [ "$STATUS" = "$1" ] || fail "exit status $STATUS, expected $1"; }

# Exactly one line from mpiexec itself, matching the extended regex $1 (anchored).
expect_mpiexec_line() {
  local n
  n=$(grep -c '^mpiexec: ' "$WORK/err")
  [ "$n" = 1 ] || fail "expected one 'mpiexec:' line on stderr, got $n"
  grep -Eq "^mpiexec: $1\$" "$WORK/err" || fail "the mpiexec line does not match '$1'"
}

# Loose bound: catches hangs, not slowness.
expect_fast() { [ "$ELAPSED_MS" -lt 10000 ] || fail "took $ELAPSED_MS ms"; }

expect_no_leftovers() {
  for _ in $(seq 1 20); do
    pgrep -x "$NAME" >/dev/null || return 0
    sleep 0.1
  done
  fail "processes left behind: $(ps -o pid,stat,cmd -p "$(pgrep -d, -x "$NAME")")"
}

expect_stdout_line() { grep -Fxq -- "$1" "$WORK/out" || fail "missing stdout line '$1'"; }

# The placement rule, recomputed here: slot = blocks of ceil(n/N) ranks, node = round robin.
node_of() { # rank n nodes map_by
  if [ "$4" = slot ]; then echo $(( $1 / (($2 + $3 - 1) / $3) )); else echo $(( $1 % $3 )); fi
}

# Every rank must see every rank on its node: node ids and hostnames (node<id>) through the standard keys,
# local ranks counted within the node.
check_nodes() { # n nodes map_by
  local n=$1 nodes=$2 map=$3 r p nr np lrank plain
  run -n "$n" --nodes "$nodes" --map-by "$map" "$CLIENT" info
  expect_status 0
  for ((r = 0; r < n; r++)); do
    nr=$(node_of "$r" "$n" "$nodes" "$map")
    lrank=0
    for ((p = 0; p < r; p++)); do [ "$(node_of "$p" "$n" "$nodes" "$map")" = "$nr" ] && lrank=$((lrank + 1)); done
    expect_stdout_line "rank $r size $n node $nr host node$nr lrank $lrank"
    for ((p = 0; p < n; p++)); do
      np=$(node_of "$p" "$n" "$nodes" "$map")
      plain=$(grep -E "^rank $r peer $p node_plain " "$WORK/out" | awk '{print $6}')
      # A plain PMIx_Get of a node id must be right where PMIx answers it, and it must answer it at least
      # for ranks on the caller's own node.
      if [ "$np" = "$nr" ] || [ "$plain" != NA ]; then
        [ "$plain" = "$np" ] || fail "rank $r: plain PMIx_Get(rank $p, PMIX_NODEID) gave '$plain', expected $np"
      fi
      grep -Eq "^rank $r peer $p node_plain [0-9NA]+ node_job $np host node$np\$" "$WORK/out" ||
        fail "rank $r does not see rank $p on node $np"
    done
  done
}

case "$CASE" in
rank_size)
  for n in 1 2 4 8; do
    run -n "$n" "$CLIENT" info
    expect_status 0
    [ "$(grep -c ' size ' "$WORK/out")" = "$n" ] || fail "-n $n: expected $n ranks to report"
    for ((r = 0; r < n; r++)); do grep -Eq "^rank $r size $n " "$WORK/out" || fail "-n $n: rank $r missing"; done
  done
  ;;
nodes_slot)
  check_nodes 5 2 slot
  check_nodes 7 3 slot
  check_nodes 2 4 slot
  ;;
nodes_node)
  check_nodes 5 2 node
  check_nodes 7 3 node
  check_nodes 2 4 node
  ;;
nodes_default)
  host=$(hostname | cut -d. -f1)
  run -n 3 "$CLIENT" info
  expect_status 0
  for r in 0 1 2; do
    expect_stdout_line "rank $r size 3 node 0 host $host lrank $r"
    for p in 0 1 2; do expect_stdout_line "rank $r peer $p node_plain 0 node_job 0 host $host"; done
  done
  ;;
exchange)
  for nodes in "" "--nodes 3"; do
    run -n 8 $nodes "$CLIENT" exchange
    expect_status 0
    for r in $(seq 0 7); do expect_stdout_line "exchange ok rank $r"; done
  done
  ;;
abort)
  run -n 4 "$CLIENT" abort 1 7
  expect_status 7
  expect_mpiexec_line "rank 1 called MPI_Abort with code 7"
  expect_fast
  expect_no_leftovers
  run -n 3 "$CLIENT" abort 2 0 # an aborted job never looks successful
  expect_status 1
  expect_mpiexec_line "rank 2 called MPI_Abort with code 0"
  expect_no_leftovers
  ;;
segv)
  run -n 4 "$CLIENT" segv 2
  expect_status 139
  expect_mpiexec_line "rank 2 \(pid [0-9]+\) killed by signal 11 \(Segmentation fault\)"
  expect_fast
  expect_no_leftovers
  ;;
no_finalize)
  run -n 4 "$CLIENT" nofinalize 3
  expect_status 1
  expect_mpiexec_line "rank 3 \(pid [0-9]+\) exited without calling MPI_Finalize"
  expect_fast
  expect_no_leftovers
  ;;
exit_code)
  run -n 4 "$CLIENT" exit 1 3 2 5 # rank 2's later code 5 must not win
  expect_status 3
  expect_mpiexec_line "rank 1 \(pid [0-9]+\) exited with code 3"
  expect_no_leftovers
  run -n 2 "$CLIENT" exit 0 0 # all zero: success, and nothing said
  expect_status 0
  [ ! -s "$WORK/err" ] || fail "a successful job printed on stderr"
  run -n 2 sh -c 'exit 4' # a program that never uses PMIx
  expect_status 4
  expect_mpiexec_line "rank [01] \(pid [0-9]+\) exited with code 4"
  ;;
timeout)
  run -n 4 --timeout 2 "$CLIENT" hang
  expect_status 124
  expect_mpiexec_line "job timed out after 2 s; killing 4 ranks"
  [ "$ELAPSED_MS" -ge 1500 ] || fail "timed out after only $ELAPSED_MS ms"
  expect_fast
  expect_no_leftovers
  ;;
signal)
  # SIGINT is reset to default because a non-interactive shell starts background jobs with it ignored.
  for sig in TERM INT; do
    TMPDIR="$WORK/tmp" env --default-signal=INT "$MPIEXEC" -n 3 "$CLIENT" hang >"$WORK/out" 2>"$WORK/err" </dev/null &
    pid=$!
    for _ in $(seq 1 100); do [ "$(grep -c ready "$WORK/out")" = 3 ] && break; sleep 0.1; done
    [ "$(grep -c ready "$WORK/out")" = 3 ] || fail "ranks did not start"
    kill -"$sig" "$pid"
    wait "$pid"
    STATUS=$?
    num=$(kill -l "$sig")
    expect_status $((128 + num))
    expect_mpiexec_line "caught signal $num \(.*\); killing 3 ranks"
    expect_no_leftovers
    [ -z "$(ls -A "$WORK/tmp")" ] || fail "mpiexec left files in TMPDIR"
  done
  ;;
stubborn)
  # Ranks and their children ignore SIGTERM: only the SIGKILL to the whole group ends them.
  run -n 3 "$CLIENT" stubborn 0
  expect_status 139
  expect_mpiexec_line "rank 0 \(pid [0-9]+\) killed by signal 11 \(Segmentation fault\)"
  expect_fast
  expect_no_leftovers
  ;;
tag_output)
  run -n 3 --tag-output "$CLIENT" lines
  expect_status 0
  bad=$(grep -Ev '^\[1,([0-9])\]<stdout>:(out [0-2] from \1|pieces of \1|unterminated \1)$' "$WORK/out")
  [ -z "$bad" ] || fail "badly tagged stdout lines: $bad"
  bad=$(grep -Ev '^\[1,([0-9])\]<stderr>:err [0-2] from \1$' "$WORK/err")
  [ -z "$bad" ] || fail "badly tagged stderr lines: $bad"
  for r in 0 1 2; do
    [ "$(grep -c "^\[1,$r\]<stdout>:" "$WORK/out")" = 5 ] || fail "rank $r: expected 5 stdout lines"
    [ "$(grep -c "^\[1,$r\]<stderr>:" "$WORK/err")" = 3 ] || fail "rank $r: expected 3 stderr lines"
  done
  ;;
export_env)
  FOO=from_env BAR=old run -n 2 -x FOO -x BAR=new "$CLIENT" env FOO
  expect_status 0
  for r in 0 1; do expect_stdout_line "rank $r FOO=from_env"; done
  BAR=old run -n 2 -x FOO -x BAR=new "$CLIENT" env BAR
  expect_status 0
  for r in 0 1; do expect_stdout_line "rank $r BAR=new"; done
  ;;
stdin)
  printf 'hello\nworld\n' >"$WORK/in"
  STDIN="$WORK/in" run -n 3 "$CLIENT" stdin
  expect_status 0
  expect_stdout_line "rank 0 stdin 12 [hello|world|]"
  for r in 1 2; do expect_stdout_line "rank $r stdin 0 []"; done
  ;;
bad_options)
  marker="$WORK/ran"
  prog=(sh -c "touch $marker")
  while IFS='|' read -r label args; do
    # shellcheck disable=SC2086 # the argument lists are written to be split
    run $args "${prog[@]}"
    [ "$STATUS" != 0 ] || fail "$label: exit status 0"
    [ "$(wc -l <"$WORK/err")" = 1 ] || fail "$label: expected exactly one line on stderr"
    grep -q '^mpiexec: ' "$WORK/err" || fail "$label: the line does not start with 'mpiexec: '"
    [ ! -s "$WORK/out" ] || fail "$label: printed on stdout"
    [ ! -e "$marker" ] || fail "$label: the program ran"
  done <<'EOF'
-n 0|-n 0
-n negative|-n -1
-n not a number|-n abc
unknown option|--bogus
--nodes 0|--nodes 0
bad --map-by|--nodes 2 --map-by core
bad --timeout|--timeout soon
bad -x|-x =x
EOF
  for args in "-n" "--timeout" "-n 2" "-n 2 no_such_program_anywhere" "-n 2 ./no/such/file"; do
    # shellcheck disable=SC2086
    run $args
    [ "$STATUS" != 0 ] || fail "'$args': exit status 0"
    [ "$(wc -l <"$WORK/err")" = 1 ] && grep -q '^mpiexec: ' "$WORK/err" || fail "'$args': expected one 'mpiexec:' line"
  done
  ;;
plain_program)
  run -n 3 hostname
  expect_status 0
  [ "$(grep -cFx "$(hostname)" "$WORK/out")" = 3 ] || fail "expected hostname three times"
  run -n 2 "$CLIENT" plain
  expect_status 0
  [ "$(grep -c '^plain [0-9]*$' "$WORK/out" | tr -d ' ')" = 2 ] || fail "expected two plain ranks"
  ;;
cleanup)
  # Segments named like the library's must be gone after a successful and after an aborted job.
  for abort in 0 1; do
    run -n 2 "$CLIENT" shm "$abort"
    [ "$abort" = 1 ] && expect_status 5 || expect_status 0
    files=$(sed -n 's/^created //p' "$WORK/out")
    [ "$(echo "$files" | grep -cE '^/dev/shm/strata_strata_[0-9]+_test[01]$')" = 2 ] || fail "segments not created as expected"
    for f in $files; do [ ! -e "$f" ] || fail "$f left behind"; done
  done
  ;;
help)
  run --help
  expect_status 0
  grep -q '^usage: mpiexec' "$WORK/out" || fail "no usage text"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS [$CASE]"
