#!/usr/bin/env bash
# The hierarchical-model paper's examples (examples/hier_bcast_reduce.c, hier_summa.c and hier_vector.c over
# examples/hier_common.c), built with the installed mpicc, on 1 rank and on simulated clusters of 4 and 8 nodes whose
# ranks are bound to cores, so that the hardware hierarchy has two levels (8 ranks on 4 nodes, 16 on 8: node, core)
# or three (16 ranks on 4 nodes: node, package, core), and with network levels above the nodes (switches; racks of
# switches). Each example checks its hierarchical form against the native
# or flat one and a direct computation and exits non-zero if they disagree; its result lines are checked here as
# well, with the node count and the hierarchy it walked, so a run that silently lost a level is seen.
source "$(dirname "$0")/lib.sh"

examples=(hier_bcast_reduce hier_summa hier_vector)
for example in "${examples[@]}"; do
  run_to "build-$example.txt" "$mpicc" -Wall -Wextra -Werror "$STRATA_SOURCE/examples/$example.c" \
    "$STRATA_SOURCE/examples/hier_common.c" -o "$example"
done

# expect_rows FILE N REGEX: exactly N lines of FILE match (the rows of a timing table).
expect_rows() {
  local count
  count=$(grep -Ec -- "$3" "$1" || true)
  ((count == $2)) || fail "$count timing rows in $1, expected $2"
}

topology="synthetic:pack:2 core:2 pu:1"
number='[0-9]+\.[0-9]+'
# ranks nodes [network levels] | hierarchy-of-world | hierarchy-of-summa's-grid-row-0; with network levels
# (mpiexec --network) the hierarchy starts above the nodes.
launches=("1 1|none \(one process, or no binding\)|none \(one process, or no binding\)"
  "8 4|Machine x4 > Core x2|Machine x2 > Core x2"
  "16 4|Machine x4 > Package x2 > Core x2|Package x2 > Core x2"
  "16 8|Machine x8 > Core x2|Machine x2 > Core x2"
  "8 4 switch:2|Switch x2 > Machine x2 > Core x2|Machine x2 > Core x2"
  "16 8 rack:2 switch:2|Rack x2 > Switch x2 > Machine x2 > Core x2|Machine x2 > Core x2")
for launch in "${launches[@]}"; do
  IFS='|' read -r counts levels row_levels <<<"$launch"
  read -r ranks nodes network <<<"$counts"
  options=(-n "$ranks" --timeout 120)
  ((nodes > 1)) && options+=(--nodes "$nodes" --topology "$topology" --bind-to core)
  [[ -n $network ]] && options+=(--network "$network")
  tag=$ranks-$nodes${network:+-${network//[ :]/-}}
  for example in "${examples[@]}"; do
    run_to "$example-$tag.txt" "$mpiexec" "${options[@]}" "./$example"
    expect_once "$example-$tag.txt" "^$example: PASSED$"
    ! grep -q FAILED "$example-$tag.txt" || fail "a check failed in $example-$tag.txt"
  done

  expect_once "hier_bcast_reduce-$tag.txt" \
    "^hier_bcast_reduce: $ranks rank\(s\) on $nodes node\(s\), hierarchy \(rank 0's branch\): $levels$" \
    "^hier_bcast_reduce: bcast: every rank got the root's data in both forms for 5 sizes$" \
    "^hier_bcast_reduce: reduce: hierarchical = native = direct MPI_INT sum for 5 sizes$"
  expect_rows "hier_bcast_reduce-$tag.txt" 10 "^ +(bcast|reduce) +[0-9]+ +[0-9]+ +$number +$number +$number$"

  expect_once "hier_summa-$tag.txt" "^hier_summa: n=128 on a [0-9]+x[0-9]+ grid, $ranks rank\(s\) on $nodes node\(s\)" \
    "^hier_summa: hierarchy of grid row 0: $row_levels;" \
    '^hier_summa: hierarchical vs flat: bitwise equal \(checksum -2594926\)$' \
    '^hier_summa: direct product on rank 0: equal to both$'
  expect_rows "hier_summa-$tag.txt" 2 "^ +(flat|hierarchical) +$number +$number +$number$"

  expect_once "hier_vector-$tag.txt" \
    "^hier_vector: $ranks rank\(s\) on $nodes node\(s\), hierarchy \(rank 0's branch\): $levels$" \
    '^hier_vector: hierarchy by hand: congruent with the hardware one at every level$' \
    '^hier_vector: hardware hierarchy: bitwise equal to the direct computation for 4 sizes$' \
    '^hier_vector: by hand hierarchy: bitwise equal to the hardware one and to the direct computation for 4 sizes$' \
    '^hier_vector: oblivious hierarchy: bitwise equal to the direct computation for 4 sizes$'
  expect_rows "hier_vector-$tag.txt" 4 "^ +[0-9]+ +[0-9]+ +$number +$number +$number +$number$"
done
echo PASS
