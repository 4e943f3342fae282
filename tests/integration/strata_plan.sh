#!/usr/bin/env bash
# build/bin/strata-plan on the hierarchical-model paper's 3-level example (section 6: 8 processes, 2 packages x 2 L3
# x 2 cores, every link alike): with alpha 1 us and no bandwidth cost, the flat-tree (linear) bcast must be
# predicted at 7 us and the hierarchical one at 3 us; every bcast algorithm is listed, fastest first; bad options
# are one line and exit 2; grouped shows its G; network levels in the machine (racks, switches) cost links between
# nodes by the same_switch and same_rack classes and make the hierarchical bcast cut by them; --order scattered
# deals ranks round robin over the nodes; a plan beyond the memory allowed ends with a message.
source "$(dirname "$0")/lib.sh"

plan=$STRATA_PREFIX/bin/strata-plan
cat >costs.txt <<'COSTS'
same_cache   1 0
same_package 1 0
same_node    1 0
other_node   1 0
gamma        0
COSTS
run_to out.txt "$plan" --machine "nodes:1 pack:2 l3:2 core:2" --op bcast --bytes 1 --costs costs.txt
time_of() { awk -v a="$1" '$1 == a { print $2 }' out.txt; }
[[ $(time_of linear) == 7.000 ]] || fail "linear bcast predicted $(time_of linear) us, not 7"
[[ $(time_of hierarchical) == 3.000 ]] || fail "hierarchical bcast predicted $(time_of hierarchical) us, not 3"
for a in linear binomial knomial pipeline scatter_allgather hierarchical distance_aware grouped; do
  [[ -n $(time_of "$a") ]] || fail "$a is not listed"
done
# Those that do not apply come last (n/a: shared_memory, which needs a node's shared segment, and a plan has none).
awk '!/^#/ { if ($2 == "n/a") na = 1; else if (na || $2 + 0 < last) exit 1; else last = $2 + 0 }' out.txt ||
  fail "the algorithms are not fastest first, then those that do not apply"
# grouped is planned at each G the library's model tries (8 ranks on 1 node: 2 and 3) and shows the one it keeps.
g=$(awk '$1 == "grouped" { print $4 }' out.txt)
[[ $g == 2 || $g == 3 ]] || fail "grouped shows G = '$g', not 2 or 3"
[[ $(awk '$1 == "linear" { print $4 }' out.txt) == - ]] || fail "linear shows a G"

status=0
"$plan" --machine "nodes:0 pack:2" --op bcast --bytes 8 >bad.txt 2>&1 || status=$?
[[ $status -eq 2 && $(wc -l <bad.txt) -eq 1 ]] || fail "a bad machine is not one line and exit 2 ($status): $(cat bad.txt)"

# Network levels (mpiexec --network's words in --machine): one rank per node, links between nodes 1 us on a switch,
# 5 us in a rack, 20 us elsewhere. Without switches, 4 nodes take the hierarchical bcast 2 rounds of 20 us = 40;
# with 2 switches of 2 nodes, one 20 us hop to the other switch, then one 1 us hop inside each: 21. With racks
# above them (8 nodes, rack:2 switch:2): 20 to the other rack, 5 to the other switch, 1 inside it: 26.
cat >net_costs.txt <<'COSTS'
same_cache   1 0
same_package 1 0
same_node    1 0
same_switch  1 0
same_rack    5 0
other_node  20 0
gamma        0
COSTS
run_to flat.txt "$plan" --machine "nodes:4 core:1" --op bcast --bytes 8 --costs net_costs.txt
run_to switched.txt "$plan" --machine "nodes:4 switch:2 core:1" --op bcast --bytes 8 --costs net_costs.txt
run_to racked.txt "$plan" --machine "nodes:8 rack:2 switch:2 core:1" --op bcast --bytes 8 --costs net_costs.txt
hier_time() { awk '$1 == "hierarchical" { print $2 }' "$1"; }
flat=$(hier_time flat.txt) switched=$(hier_time switched.txt) racked=$(hier_time racked.txt)
[[ $flat == 40.000 ]] || fail "hierarchical bcast on 4 nodes without switches predicted $flat us, not 40"
[[ $switched == 21.000 ]] || fail "hierarchical bcast on 4 nodes under 2 switches predicted $switched us, not 21"
[[ $racked == 26.000 ]] || fail "hierarchical bcast on 8 nodes under rack:2 switch:2 predicted $racked us, not 26"
awk -v a="$switched" -v b="$flat" 'BEGIN { exit !(a + 0 <= b + 0) }' || fail "switches made the bcast slower"
grep -q 'under "rack:2 switch:2"' racked.txt || fail "the header does not name the network: $(head -1 racked.txt)"
# Its cuts follow the network whatever the rank order: with 2 cores per node, 20 + 5 + 1 + 1 (the node's other
# core) = 27 us in block and in shuffled order alike. Every rank must see the other nodes' racks and switches for
# that: hierarchies cut by node alone elsewhere disagree between ranks, and the plan comes out incomplete.
for order in block shuffled; do
  run_to "racked_$order.txt" "$plan" --machine "nodes:8 rack:2 switch:2 core:2" --op bcast --bytes 8 \
    --costs net_costs.txt --order "$order"
  t=$(hier_time "racked_$order.txt")
  [[ $t == 27.000 ]] || fail "hierarchical bcast under rack:2 switch:2, 2 cores per node, $order: $t us, not 27"
done
# --order scattered deals ranks round robin over the nodes (mpiexec --map-by node): on 2 nodes of 2 cores ranks 0, 2
# are on node 0 and 1, 3 on node 1. Binomial from 0 sends 0->2, then 0->1 and 2->3: in block order one 20 us hop and
# two 1 us ones side by side (21); scattered, a 1 us hop, then two hops out of node 0, one after the other on its
# network port (41). The hierarchical bcast takes 21 in both.
binomial_time() { awk '$1 == "binomial" { print $2 }' "$1"; }
for order in block scattered; do
  run_to "two_$order.txt" "$plan" --machine "nodes:2 core:2" --op bcast --bytes 8 --costs net_costs.txt \
    --order "$order"
  grep -q "$order order" "two_$order.txt" || fail "the header does not say $order order: $(head -1 "two_$order.txt")"
  [[ $(hier_time "two_$order.txt") == 21.000 ]] || fail "hierarchical bcast, $order: $(hier_time "two_$order.txt")"
done
[[ $(binomial_time two_block.txt) == 21.000 ]] || fail "binomial bcast, block order: $(binomial_time two_block.txt)"
[[ $(binomial_time two_scattered.txt) == 41.000 ]] ||
  fail "binomial bcast, scattered order: $(binomial_time two_scattered.txt) us, not 41"
status=0
"$plan" --machine "nodes:2 core:2" --op bcast --bytes 8 --order round >bad.txt 2>&1 || status=$?
[[ $status -eq 2 && $(wc -l <bad.txt) -eq 1 ]] || fail "--order round: not one line and exit 2 ($status)"
# A tree that does not fit the nodes, and network levels after the node's, are one line and exit 2.
for machine in "nodes:3 switch:2 core:1" "nodes:4 core:1 switch:2"; do
  status=0
  "$plan" --machine "$machine" --op bcast --bytes 8 >bad.txt 2>&1 || status=$?
  [[ $status -eq 2 && $(wc -l <bad.txt) -eq 1 ]] || fail "--machine \"$machine\": not one line and exit 2 ($status)"
done
# A machine whose schedules do not fit the memory allowed is one line and exit 2 too, not an abort; the same limit
# plans a small machine.
status=0
(ulimit -v 400000 && "$plan" --machine "nodes:64 core:32" --op allgather --bytes 8) >bad.txt 2>&1 || status=$?
[[ $status -eq 2 && $(wc -l <bad.txt) -eq 1 ]] && grep -q "out of memory" bad.txt ||
  fail "a plan beyond the memory limit: not one line and exit 2 ($status): $(cat bad.txt)"
(ulimit -v 400000 && "$plan" --machine "nodes:2 core:2" --op allgather --bytes 8) >small.txt 2>&1 ||
  fail "a small plan fails under the memory limit: $(cat small.txt)"
echo PASS
