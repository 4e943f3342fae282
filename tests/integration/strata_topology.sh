#!/usr/bin/env bash
# build/bin/strata-topology on the hierarchical-model paper's Figure 2 (one node of 2 packages, each with its NUMA
# node and L3, an L2 per pair of cores, 8 cores; ranks 0,1 on cores 0,1, ranks 2,3 on L2 #1, ranks 4..7 on NUMA
# node 1): the printed hierarchy must be the figure's, written here by hand.
source "$(dirname "$0")/lib.sh"

run_to out.txt "$mpiexec" -n 8 --nodes 1 --topology "synthetic:pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1" \
  --cpu-list "0;1;2-3;2-3;4-7;4-7;4-7;4-7" "$STRATA_PREFIX/bin/strata-topology"
cat >expected.txt <<'TREE'
8 ranks on 1 node
node 0 (node0): Machine x1 Package x2 NUMANode x2 (redundant) L3Cache x2 (redundant) L2Cache x4 L1Cache x8 Core x8 (redundant) PU x8 (redundant)
  Machine#0: ranks 0-7
    Package#0: ranks 0-3
      L2Cache#0: ranks 0-1
        L1Cache#0: rank 0
        L1Cache#1: rank 1
      L2Cache#1: ranks 2-3
    Package#1: ranks 4-7
  rank 0: cpuset 0, binding simulated
  rank 1: cpuset 1, binding simulated
  rank 2: cpuset 2-3, binding simulated
  rank 3: cpuset 2-3, binding simulated
  rank 4: cpuset 4-7, binding simulated
  rank 5: cpuset 4-7, binding simulated
  rank 6: cpuset 4-7, binding simulated
  rank 7: cpuset 4-7, binding simulated
TREE
diff -u expected.txt out.txt || fail "strata-topology printed another hierarchy"
echo PASS
