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
# $PREFIX (an array, default none) goes before mpiexec: e.g. a taskset that narrows the CPUs it may use.
PREFIX=()
run() {
  local start=$(date +%s%N)
  TMPDIR="$WORK/tmp" "${PREFIX[@]}" "$MPIEXEC" "$@" >"$WORK/out" 2>"$WORK/err" <"${STDIN:-/dev/null}"
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

# Hardware expectations come from hwloc's own tools, never from Strata's topo/: $MACHINE is hwloc-calc's
# input options for the machine under test (a synthetic description, an XML file, or none for this host).
MACHINE=()
synthetic() { MACHINE=(--if synthetic --input "$1"); }
calc() { hwloc-calc "${MACHINE[@]}" "$@" 2>/dev/null; } # silence its "Inserting a NUMA level" notes
count_of() { local n; n=$(calc -N "$1" all); echo "${n:-0}"; } # instances of an hwloc type (none: 0)
pus_of() { calc -I pu --po --sep , "$1:$2"; }             # OS PU numbers of instance $2 of type $1: "4,5"

# "0-2,5" (hwloc list, as in PMIX_CPUSET) -> "0,1,2,5".
expand_list() {
  local out="" item lo hi i items
  IFS=, read -ra items <<<"$1"
  for item in "${items[@]}"; do
    lo=${item%-*} hi=${item#*-}
    for ((i = lo; i <= hi; i++)); do out+="${out:+,}$i"; done
  done
  echo "$out"
}

# What the topo client says rank $1 sees, as a comma list ("none" when no PMIX_CPUSET was published).
seen_cpuset() {
  local v
  v=$(sed -n "s/^rank $1 cpuset //p" "$WORK/out")
  [ -n "$v" ] || fail "rank $1 did not report its cpuset"
  if [ "$v" = none ]; then echo none; else
    [[ "$v" == hwloc:* ]] || fail "rank $1: PMIX_CPUSET '$v' lacks the hwloc: prefix"
    expand_list "${v#hwloc:}"
  fi
}
seen_affinity() { sed -n "s/^rank $1 affinity //p" "$WORK/out"; }

expect_cpuset() { # rank expected-comma-list
  local got
  got=$(seen_cpuset "$1")
  [ "$got" = "$2" ] || fail "rank $1: PMIX_CPUSET is '$got', expected '$2'"
}

# Every rank of a topo run got the machine of $MACHINE: object counts of its PMIX_HWLOC_XML_V2.
expect_machine() { # nprocs
  local want
  want="xml pack:$(count_of package) numa:$(count_of numa) l3:$(count_of l3) l2:$(count_of l2)"
  want+=" l1:$(count_of l1) core:$(count_of core) pu:$(count_of pu)"
  for ((r = 0; r < $1; r++)); do expect_stdout_line "rank $r $want"; done
}

# A command line mpiexec must refuse before starting anything: status 2, exactly one stderr line
# "mpiexec: <the extended regex $1>", nothing on stdout, the program never ran (TMPDIR empty: see run).
expect_refused() { # regex mpiexec-args...
  local regex=$1 marker="$WORK/ran"
  shift
  rm -f "$marker"
  run "$@" sh -c "touch $marker"
  expect_status 2
  [ "$(wc -l <"$WORK/err")" = 1 ] || fail "'$*': expected exactly one line on stderr"
  grep -Eq "^mpiexec: $regex\$" "$WORK/err" || fail "'$*': the line does not match '$regex'"
  [ ! -s "$WORK/out" ] || fail "'$*': printed on stdout"
  [ ! -e "$marker" ] || fail "'$*': the program ran"
}

# The hierarchical-model paper's node: PUs 0-7; package, NUMA node and L3 p hold PUs 4p..4p+3, L2 j holds
# 2j and 2j+1, and each L1, core and PU one PU.
PAPER="pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1"

case "$CASE" in
topology_synthetic)
  for desc in "$PAPER" "pack:2 core:2 pu:2" "pack:1 l2:3 core:1 pu:1"; do
    synthetic "$desc"
    for layout in "" "--nodes 2 --map-by node" "--nodes 3"; do
      # shellcheck disable=SC2086
      run -n 3 $layout --topology "synthetic:$desc" "$CLIENT" topo
      expect_status 0
      expect_machine 3
      for r in 0 1 2; do expect_cpuset "$r" none; done # a machine alone binds nothing
    done
  done
  run -n 2 "$CLIENT" topo # no --topology: no machine published, the library discovers its own
  expect_status 0
  for r in 0 1; do expect_stdout_line "rank $r xml none"; done
  ;;
topology_xml)
  desc="pack:3 l2:2 core:1 pu:2"
  lstopo-no-graphics --if synthetic --input "$desc" --of xml >"$WORK/machine.xml" 2>/dev/null ||
    fail "lstopo could not write the XML"
  MACHINE=(--if xml --input "$WORK/machine.xml")
  run -n 4 --nodes 2 --topology "xml:$WORK/machine.xml" --bind-to core "$CLIENT" topo
  expect_status 0
  expect_machine 4
  [ "$(count_of pu)" = 12 ] || fail "hwloc-calc does not see 12 PUs in $desc"
  for r in 0 1 2 3; do expect_cpuset "$r" "$(pus_of core $((r % 2)))"; done # slot: two ranks per node
  ;;
bind_simulated)
  # Every level and alias: local rank i gets the i-th instance (hwloc's logical order).
  synthetic "$PAPER"
  for spec in hwthread:pu pu:pu core:core l1:l1 l1cache:l1 l2:l2 l3:l3 numa:numa package:package socket:package; do
    level=${spec%%:*} type=${spec#*:}
    n=$(count_of "$type")
    run -n "$n" --topology "synthetic:$PAPER" --bind-to "$level" "$CLIENT" topo
    expect_status 0
    for ((r = 0; r < n; r++)); do expect_cpuset "$r" "$(pus_of "$type" "$r")"; done
    # Simulated: published, never applied.
    for ((r = 0; r < n; r++)); do [ "$(seen_affinity "$r")" = "$(seen_affinity 0)" ] || fail "rank $r was really bound"; done
  done
  run -n 2 --topology "synthetic:$PAPER" --bind-to none "$CLIENT" topo
  expect_status 0
  for r in 0 1; do expect_cpuset "$r" none; done
  ;;
bind_nodes)
  # Ranks are bound in local-rank order on each simulated node, whatever the mapping.
  synthetic "$PAPER"
  for map in slot node; do
    run -n 7 --nodes 2 --map-by "$map" --topology "synthetic:$PAPER" --bind-to l2 "$CLIENT" topo
    expect_status 0
    for ((r = 0; r < 7; r++)); do
      nr=$(node_of "$r" 7 2 "$map") lrank=0
      for ((p = 0; p < r; p++)); do [ "$(node_of "$p" 7 2 "$map")" = "$nr" ] && lrank=$((lrank + 1)); done
      expect_cpuset "$r" "$(pus_of l2 "$lrank")"
    done
  done
  ;;
bind_oversubscribe)
  desc="pack:2 core:2 pu:1"
  synthetic "$desc"
  expect_refused "cannot bind 5 ranks per node to 4 cores; use --oversubscribe to bind several ranks to one core" \
    -n 5 --topology "synthetic:$desc" --bind-to core
  run -n 6 --oversubscribe --topology "synthetic:$desc" --bind-to core "$CLIENT" topo
  expect_status 0
  for r in 0 1 2 3 4 5; do expect_cpuset "$r" "$(pus_of core $((r % 4)))"; done
  ;;
bind_real)
  # This host, really bound: sched_getaffinity in the rank must be its core, and PMIX_CPUSET says the same.
  MACHINE=()
  [ "$(count_of core)" -ge 2 ] || { echo "PASS [$CASE] (skipped: fewer than 2 cores)"; exit 0; }
  run -n 2 --bind-to core "$CLIENT" topo
  expect_status 0
  for r in 0 1; do
    [ "$(seen_affinity "$r")" = "$(pus_of core "$r")" ] || fail "rank $r runs on '$(seen_affinity "$r")', not core $r"
    expect_cpuset "$r" "$(pus_of core "$r")"
    expect_stdout_line "rank $r xml none"
  done
  [ "$(seen_affinity 0)" != "$(seen_affinity 1)" ] || fail "both ranks on one core"
  first=$(pus_of pu 0) second=$(pus_of pu 1)
  run -n 2 --cpu-list "$second;$first" "$CLIENT" topo
  expect_status 0
  if [ "$(seen_affinity 0)" != "$second" ] || [ "$(seen_affinity 1)" != "$first" ]; then
    fail "--cpu-list not applied"
  fi
  expect_cpuset 0 "$second"
  expect_cpuset 1 "$first"
  unbound=$(taskset -pc $$ | sed 's/.*: //') # what an unbound rank inherits
  run -n 2 "$CLIENT" topo
  expect_status 0
  for r in 0 1; do
    expect_cpuset "$r" none
    [ "$(seen_affinity "$r")" = "$(expand_list "$unbound")" ] || fail "rank $r bound without --bind-to"
  done
  ;;
node_cpus)
  # Simulated nodes run on their own shares of the CPUs mpiexec may use (C of them): node n of N gets the n-th
  # N-th of the list when N <= C, else k = ceil(N/C) nodes share one CPU; mpiexec publishes the shares' sizes.
  expect_shares() { # n nodes cpu-list
    local n=$1 nodes=$2 r node c=0 k=1 per share item cpus
    IFS=, read -ra cpus <<<"$3"
    c=${#cpus[@]}
    if ((nodes <= c)); then per=$(awk -v c="$c" -v n="$nodes" 'BEGIN { printf "%.6g", c / n }'); else
      k=$(((nodes + c - 1) / c)) per=$(awk -v k="$k" 'BEGIN { printf "%.6g", 1 / k }')
    fi
    for ((r = 0; r < n; r++)); do
      node=$(node_of "$r" "$n" "$nodes" slot) share=""
      if ((nodes == 1)); then share=$3
      elif ((nodes <= c)); then
        for ((item = node * c / nodes; item < (node + 1) * c / nodes; item++)); do
          share+="${share:+,}${cpus[item]}"
        done
      else share=${cpus[node / k]}; fi
      [ "$(seen_affinity "$r")" = "$share" ] || fail "rank $r (node $node) runs on $(seen_affinity "$r"), not $share"
      expect_stdout_line "rank $r shares $per $k"
    done
  }
  all=$(expand_list "$(taskset -pc $$ | sed 's/.*: //')")
  IFS=, read -ra every <<<"$all"
  for nodes in 1 2 $((${#every[@]} + 1)); do
    run -n 6 --nodes "$nodes" --map-by slot "$CLIENT" topo
    expect_status 0
    expect_shares 6 "$nodes" "$all"
  done
  PREFIX=(taskset -c "${every[0]}") # one CPU: three nodes share it
  run -n 3 --nodes 3 --topology "synthetic:pack:1 core:2 pu:1" --bind-to core "$CLIENT" topo
  expect_status 0
  expect_shares 3 3 "${every[0]}"
  ;;
cpu_list)
  synthetic "$PAPER"
  for layout in "" "--nodes 2" "--bind-to none"; do
    # shellcheck disable=SC2086
    run -n 4 $layout --topology "synthetic:$PAPER" --cpu-list "0,1;2-3;4-7;7,0" "$CLIENT" topo
    expect_status 0
    expect_machine 4
    expect_cpuset 0 0,1
    expect_cpuset 1 2,3
    expect_cpuset 2 4,5,6,7
    expect_cpuset 3 0,7
  done
  ;;
report_bindings)
  # Expected lines derived by hand from $PAPER (see its comment): a rank lies in a level's instance only if
  # its whole cpuset does; 3-4 straddles the packages, so only the node holds it.
  run -n 4 --nodes 2 --topology "synthetic:$PAPER" --cpu-list "0;2-3;4-7;3-4" --report-bindings "$CLIENT" lines
  expect_status 0
  report=$(grep '^\[mpiexec\]' "$WORK/err")
  expected='[mpiexec] rank 0 on node0: cpuset 0 (simulated): Node#0 Package#0 NUMANode#0 L3Cache#0 L2Cache#0 L1Cache#0 Core#0 PU#0
[mpiexec] rank 1 on node0: cpuset 2-3 (simulated): Node#0 Package#0 NUMANode#0 L3Cache#0 L2Cache#1
[mpiexec] rank 2 on node1: cpuset 4-7 (simulated): Node#0 Package#1 NUMANode#1 L3Cache#1
[mpiexec] rank 3 on node1: cpuset 3-4 (simulated): Node#0'
  [ "$report" = "$expected" ] || fail "report is
$report"
  # Printed before the ranks start: all four lines come first on stderr.
  [ "$(head -4 "$WORK/err")" = "$expected" ] || fail "the report is not the first thing on stderr"
  run -n 2 --nodes 2 --map-by node --topology "synthetic:$PAPER" --bind-to l2 --report-bindings "$CLIENT" topo
  expect_status 0
  grep -Fxq '[mpiexec] rank 1 on node1: cpuset 0-1 (simulated): Node#0 Package#0 NUMANode#0 L3Cache#0 L2Cache#0' \
    "$WORK/err" || fail "no report for rank 1 bound to node1's first L2"
  run -n 1 --nodes 1 --topology "synthetic:$PAPER" --report-bindings "$CLIENT" topo
  expect_status 0
  [ "$(cat "$WORK/err")" = "[mpiexec] rank 0 on node0: unbound: Node#0" ] || fail "unbound rank misreported"
  host=$(hostname | cut -d. -f1)
  run -n 2 --bind-to core --report-bindings "$CLIENT" topo
  expect_status 0
  for r in 0 1; do
    grep -Eq "^\[mpiexec\] rank $r on $host: cpuset $(seen_affinity "$r") \(real\): Node#0 .*Core#$r( PU#[0-9]+)?\$" \
      "$WORK/err" || fail "no real report line for rank $r"
  done
  run -n 2 --topology "synthetic:$PAPER" --bind-to core "$CLIENT" topo
  expect_status 0
  [ ! -s "$WORK/err" ] || fail "a report without --report-bindings"
  ;;
bad_bindings)
  printf 'garbage' >"$WORK/corrupt.xml"
  small="pack:2 core:2 pu:1"
  expect_refused '--topology: invalid synthetic topology "pack:x pu:1"' --topology 'synthetic:pack:x pu:1'
  expect_refused "--topology: cannot read topology file $WORK/missing.xml" --topology "xml:$WORK/missing.xml"
  expect_refused "--topology: invalid XML topology file $WORK/corrupt.xml" --topology "xml:$WORK/corrupt.xml"
  expect_refused "--topology needs synthetic:.* or xml:FILE, got 'pack:2'" --topology "pack:2"
  expect_refused "--bind-to must be none, hwthread, core, l1, l2, l3, numa or package, got 'board'" --bind-to board
  expect_refused "--bind-to must be .*, got 'node'" --bind-to node
  expect_refused "--bind-to L3Cache: the simulated machine has no L3 cache" --topology "synthetic:$small" --bind-to l3
  expect_refused "--bind-to Core: the simulated machine has no core" --topology "synthetic:pack:2 pu:2" --bind-to core
  expect_refused "cannot bind 5 ranks per node to 4 cores; use --oversubscribe .*" \
    -n 9 --nodes 2 --topology "synthetic:$small" --bind-to core --report-bindings
  MACHINE=()
  cores=$(count_of core)
  expect_refused "cannot bind $((cores + 1)) ranks per node to $cores cores?; use --oversubscribe .*" \
    -n $((cores + 1)) --bind-to core
  expect_refused "--cpu-list has 3 cpusets for 2 ranks; give one per rank, separated by ';'" -n 2 --cpu-list "0;1;0"
  expect_refused "--cpu-list has 1 cpusets for 2 ranks; .*" -n 2 --cpu-list "0"
  expect_refused "--cpu-list entry for rank 1 \('1-x'\) is not a PU list like 0-3,8" -n 2 --cpu-list "0;1-x"
  expect_refused "--cpu-list entry for rank 1 \(''\) is not a PU list like 0-3,8" -n 2 --cpu-list "0;"
  expect_refused "--cpu-list entry for rank 0 \('3-1'\) is not a PU list like 0-3,8" -n 1 --cpu-list "3-1"
  expect_refused "--cpu-list entry for rank 1 \('6-8'\) is not within the simulated machine's PUs 0-7" \
    -n 2 --topology "synthetic:$PAPER" --cpu-list "0;6-8"
  expect_refused "--cpu-list entry for rank 0 \('4096'\) is not within this host's PUs [0-9,-]+" -n 1 --cpu-list 4096
  expect_refused "--cpu-list and --bind-to Core exclude each other: .*" -n 1 --cpu-list 0 --bind-to core
  expect_refused "--cpu-list and --bind-to Core exclude each other: .*" -n 1 --bind-to core --cpu-list 0
  ;;
network_publish)
  # --network "rack:2 switch:2" on 8 nodes: node ids in blocks of 4 per rack and 2 per switch (job-wide switch
  # numbers), published as job-level PMIX_FABRIC_GROUPS (racks) and strata.fabric.switch (switches).
  run -n 8 --nodes 8 --network "rack:2 switch:2" "$CLIENT" network
  expect_status 0
  for r in $(seq 0 7); do
    expect_stdout_line "rank $r racks 0:node0,node1,node2,node3;1:node4,node5,node6,node7"
    expect_stdout_line "rank $r switches 0:node0,node1;1:node2,node3;2:node4,node5;3:node6,node7"
  done
  # Case-insensitive names; 3 ranks on 4 nodes: the groups still list the whole tree.
  run -n 3 --nodes 4 --network "SWITCH:2" "$CLIENT" network
  expect_status 0
  for r in 0 1 2; do
    expect_stdout_line "rank $r racks none"
    expect_stdout_line "rank $r switches 0:node0,node1;1:node2,node3"
  done
  # Listed node counts on the lowest level: switches of 3, 1 and 2 nodes in block order.
  run -n 6 --nodes 6 --network "rack:1 switch:3,1,2" "$CLIENT" network
  expect_status 0
  expect_stdout_line "rank 5 racks 0:node0,node1,node2,node3,node4,node5"
  expect_stdout_line "rank 5 switches 0:node0,node1,node2;1:node3;2:node4,node5"
  run -n 2 --nodes 2 "$CLIENT" network # no --network: nothing published
  expect_status 0
  for r in 0 1; do
    expect_stdout_line "rank $r racks none"
    expect_stdout_line "rank $r switches none"
  done
  ;;
network_report)
  # --report-bindings names each node's rack and switch (job-wide indexes) before the node's levels.
  run -n 4 --nodes 4 --network "rack:2 switch:2" --topology "synthetic:$PAPER" --report-bindings "$CLIENT" lines
  expect_status 0
  report=$(grep '^\[mpiexec\]' "$WORK/err")
  expected='[mpiexec] rank 0 on node0: unbound: Rack#0 Switch#0 Node#0
[mpiexec] rank 1 on node1: unbound: Rack#0 Switch#1 Node#0
[mpiexec] rank 2 on node2: unbound: Rack#1 Switch#2 Node#0
[mpiexec] rank 3 on node3: unbound: Rack#1 Switch#3 Node#0'
  [ "$report" = "$expected" ] || fail "report is
$report"
  ;;
bad_network)
  nodes="rack:2 switch:2"
  expect_refused "--network \"pod:2\": unknown network level 'pod' in 'pod:2' \(levels, top to bottom: rack, switch\)" \
    --nodes 4 --network pod:2
  expect_refused "--network \"node:2\": unknown network level 'node' .*" --nodes 4 --network "node:2"
  expect_refused "--network \"rack:0\": level 'rack' needs a positive integer fan-out .*, got 'rack:0'" \
    --nodes 4 --network "rack:0"
  expect_refused "--network \"rack:-2\": level 'rack' needs a positive integer fan-out .*, got 'rack:-2'" \
    --nodes 4 --network "rack:-2"
  expect_refused "--network \"switch:two\": level 'switch' needs a positive integer fan-out .*, got 'switch:two'" \
    --nodes 4 --network "switch:two"
  expect_refused "--network \"rack\": level 'rack' needs a positive integer fan-out .*, got 'rack'" \
    --nodes 4 --network "rack"
  expect_refused "--network \"rack:2 rack:2\": level rack appears twice" --nodes 4 --network "rack:2 rack:2"
  expect_refused "--network \"switch:2 rack:2\": level rack must come before switch \(.*\)" \
    --nodes 4 --network "switch:2 rack:2"
  expect_refused "--network \"\": no levels given .*" --nodes 4 --network ""
  expect_refused "--network \"rack:2,2 switch:2\": only the lowest level may list node counts, not rack" \
    --nodes 4 --network "rack:2,2 switch:2"
  expect_refused "--network \"rack:2 switch:2\" needs --nodes N \(the network spreads simulated nodes\)" \
    -n 2 --network "$nodes"
  expect_refused "--network \"rack:2 switch:2\" does not fit --nodes 6: 6 nodes cannot be spread evenly over 4 .*" \
    --nodes 6 --network "$nodes"
  expect_refused "--network \"switch:3,2\" does not fit --nodes 4: the switch node counts add up to 5, not 4 nodes" \
    --nodes 4 --network "switch:3,2"
  expect_refused "--bind-to must be none, hwthread, core, l1, l2, l3, numa or package, got 'rack'" --bind-to rack
  ;;
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
  # The limit may come from MPIEXEC_TIMEOUT, as with MPICH's and Open MPI's launchers; --timeout overrides it.
  MPIEXEC_TIMEOUT=2 run -n 2 "$CLIENT" hang
  expect_status 124
  expect_mpiexec_line "job timed out after 2 s; killing 2 ranks"
  MPIEXEC_TIMEOUT=600 run -n 2 --timeout 1 "$CLIENT" hang
  expect_status 124
  expect_mpiexec_line "job timed out after 1 s; killing 2 ranks"
  MPIEXEC_TIMEOUT=soon run -n 2 "$CLIENT" exit 0 0
  [ "$STATUS" != 0 ] || fail "MPIEXEC_TIMEOUT=soon: exit status 0"
  grep -q "^mpiexec: MPIEXEC_TIMEOUT needs a positive integer, got 'soon'" "$WORK/err" ||
    fail "MPIEXEC_TIMEOUT=soon: no usage error naming it"
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
